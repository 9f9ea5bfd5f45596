// Testing exports of the git area: list each export by name.
export {};
