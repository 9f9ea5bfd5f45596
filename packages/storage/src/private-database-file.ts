import fs from "node:fs";

/** Mode of a directory the SDK creates for its database: the owner alone. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
/** Mode of a database file the SDK creates: the owner alone may read and write. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the missing directories of `directory` with mode 0700; an existing
 * one (the host's) keeps its mode. A mode under `mkdir` is only ever narrowed
 * by the umask, so 0700 holds under any umask that leaves the owner its bits.
 */
export function createPrivateDirectory(directory: string): void {
  fs.mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

/**
 * Creates `filename` empty with mode 0600 (O_CREAT|O_EXCL, no symlink
 * followed, then fchmod so the umask has no say) before SQLite opens it;
 * true when this call made it. An existing file is left as it is: it is the
 * host's (or an older version's), and its mode is the host's call. SQLite
 * gives the `-journal`, `-wal` and `-shm` files it creates beside the
 * database the database file's permission bits (its unix VFS copies them and
 * fchmods past the umask), so a 0600 database keeps those 0600 too.
 */
export function createPrivateDatabaseFile(filename: string): boolean {
  let descriptor: number;
  try {
    descriptor = fs.openSync(filename, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    fs.fchmodSync(descriptor, PRIVATE_FILE_MODE);
  } finally {
    fs.closeSync(descriptor);
  }
  return true;
}
