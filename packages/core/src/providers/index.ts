// Public exports of the providers area: list each export by name.
export {};
