// Testing exports of the process area: list each export by name.
export {};
