// Types of the `diff3` package (the merge engine isomorphic-git uses), which ships none.
declare module "diff3" {
  /** One block of a 3-way merge: agreed lines, or a conflict between `a` (ours) and `b` (theirs) over `o` (base). */
  type Diff3Block =
    | { ok: string[]; conflict?: undefined }
    | { ok?: undefined; conflict: { a: string[]; aIndex: number; o: string[]; oIndex: number; b: string[]; bIndex: number } };
  function diff3Merge(a: string[], o: string[], b: string[]): Diff3Block[];
  export default diff3Merge;
}
