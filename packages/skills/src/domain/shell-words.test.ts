import { describe, expect, it } from "vitest";
import { splitShellSegments } from "./shell-words.js";

describe("splitShellSegments", () => {
  it.each([
    ["ls -la", [["ls", "-la"]]],
    [
      `cd "my dir" && cat a.txt | head -n 2 # done`,
      [
        ["cd", "my dir"],
        ["cat", "a.txt"],
        ["head", "-n", "2"],
      ],
    ],
    ["a; b || c\nd & e", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    [`echo 'x; y' "a \\"b\\" $c" d\\ e`, [["echo", "x; y", 'a "b" $c', "d e"]]],
    ["cmd > out.txt 2>&1", [["cmd", ">", "out.txt", "2>&", "1"]]],
    ["echo x>>f", [["echo", "x", ">>", "f"]]],
    ["echo x 1<>f 2>/dev/null", [["echo", "x", "1<>", "f", "2>", "/dev/null"]]],
    ['echo "2">f', [["echo", "2", ">", "f"]]],
    ["cat <<EOF", [["cat", "<<", "EOF"]]],
    ["cat $'/a\\x2fb\\nc' $\"d\" $'it\\'s'", [["cat", "/a/b\nc", "d", "it's"]]],
    ["cmd &> log &", [["cmd", "&>", "log"]]],
    ["(cd x && ls) | wc", [["cd", "x"], ["ls"], ["wc"]]],
    ["echo $(cat f) `id`", [["echo", "$"], ["cat", "f"], ["id"]]],
    ["a \\\n b", [["a", "b"]]],
    ["echo a#b", [["echo", "a#b"]]],
    ["echo ''", [["echo", ""]]],
    ["   ", []],
    ["echo 'unterminated", [["echo", "unterminated"]]],
  ])("%j", (command, expected) => {
    expect(splitShellSegments(command)).toEqual(expected);
  });
});
