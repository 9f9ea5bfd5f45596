/**
 * A server's root for a file: the nearest ancestor directory (inside the
 * workspace) holding one of the config's root markers, else the workspace
 * root. Markers are probed through the workspace's own readFile; answers
 * are cached per directory for the manager's lifetime.
 */

/** Finds roots; `markers` empty means the workspace root. */
export type RootFinder = (path: string, markers: readonly string[]) => Promise<string>;

/** A cached root finder over `readFile`. */
export function createRootFinder(workspaceRoot: string, readFile: (path: string) => Promise<Buffer>): RootFinder {
  const exists = new Map<string, Promise<boolean>>();
  const probe = (path: string) => {
    let known = exists.get(path);
    if (!known) {
      known = readFile(path).then(
        () => true,
        () => false,
      );
      exists.set(path, known);
    }
    return known;
  };
  const prefix = workspaceRoot === "/" ? "/" : `${workspaceRoot}/`;
  return async (path, markers) => {
    if (markers.length === 0 || !path.startsWith(prefix)) return workspaceRoot;
    let directory = path.slice(0, path.lastIndexOf("/")) || "/";
    while (directory.startsWith(prefix) || directory === workspaceRoot) {
      for (const marker of markers) if (await probe(`${directory}/${marker}`)) return directory;
      if (directory === workspaceRoot) break;
      directory = directory.slice(0, directory.lastIndexOf("/")) || "/";
    }
    return workspaceRoot;
  };
}
