// Testing exports of the storage area: list each export by name.
export {};
