// Testing exports of the model area: list each export by name.
export {};
