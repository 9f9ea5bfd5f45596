/**
 * SQLite result codes (primary and extended) by number, named as SQLite's
 * header names them: the `code` strings better-sqlite3 puts on its errors.
 * node:sqlite gives only the number (`errcode`); {@link withSqliteCodeName}
 * adds the name, so code written against better-sqlite3's errors
 * (`code.startsWith("SQLITE_BUSY")`) classifies both drivers' errors alike.
 */
const SQLITE_CODE_NAMES: ReadonlyMap<number, string> = new Map<number, string>([
  [0, "SQLITE_OK"],
  [1, "SQLITE_ERROR"],
  [2, "SQLITE_INTERNAL"],
  [3, "SQLITE_PERM"],
  [4, "SQLITE_ABORT"],
  [5, "SQLITE_BUSY"],
  [6, "SQLITE_LOCKED"],
  [7, "SQLITE_NOMEM"],
  [8, "SQLITE_READONLY"],
  [9, "SQLITE_INTERRUPT"],
  [10, "SQLITE_IOERR"],
  [11, "SQLITE_CORRUPT"],
  [12, "SQLITE_NOTFOUND"],
  [13, "SQLITE_FULL"],
  [14, "SQLITE_CANTOPEN"],
  [15, "SQLITE_PROTOCOL"],
  [16, "SQLITE_EMPTY"],
  [17, "SQLITE_SCHEMA"],
  [18, "SQLITE_TOOBIG"],
  [19, "SQLITE_CONSTRAINT"],
  [20, "SQLITE_MISMATCH"],
  [21, "SQLITE_MISUSE"],
  [22, "SQLITE_NOLFS"],
  [23, "SQLITE_AUTH"],
  [24, "SQLITE_FORMAT"],
  [25, "SQLITE_RANGE"],
  [26, "SQLITE_NOTADB"],
  [27, "SQLITE_NOTICE"],
  [28, "SQLITE_WARNING"],
  [100, "SQLITE_ROW"],
  [101, "SQLITE_DONE"],
  [257, "SQLITE_ERROR_MISSING_COLLSEQ"],
  [513, "SQLITE_ERROR_RETRY"],
  [769, "SQLITE_ERROR_SNAPSHOT"],
  [266, "SQLITE_IOERR_READ"],
  [522, "SQLITE_IOERR_SHORT_READ"],
  [778, "SQLITE_IOERR_WRITE"],
  [1034, "SQLITE_IOERR_FSYNC"],
  [1290, "SQLITE_IOERR_DIR_FSYNC"],
  [1546, "SQLITE_IOERR_TRUNCATE"],
  [1802, "SQLITE_IOERR_FSTAT"],
  [2058, "SQLITE_IOERR_UNLOCK"],
  [2314, "SQLITE_IOERR_RDLOCK"],
  [2570, "SQLITE_IOERR_DELETE"],
  [2826, "SQLITE_IOERR_BLOCKED"],
  [3082, "SQLITE_IOERR_NOMEM"],
  [3338, "SQLITE_IOERR_ACCESS"],
  [3594, "SQLITE_IOERR_CHECKRESERVEDLOCK"],
  [3850, "SQLITE_IOERR_LOCK"],
  [4106, "SQLITE_IOERR_CLOSE"],
  [4362, "SQLITE_IOERR_DIR_CLOSE"],
  [4618, "SQLITE_IOERR_SHMOPEN"],
  [4874, "SQLITE_IOERR_SHMSIZE"],
  [5130, "SQLITE_IOERR_SHMLOCK"],
  [5386, "SQLITE_IOERR_SHMMAP"],
  [5642, "SQLITE_IOERR_SEEK"],
  [5898, "SQLITE_IOERR_DELETE_NOENT"],
  [6154, "SQLITE_IOERR_MMAP"],
  [6410, "SQLITE_IOERR_GETTEMPPATH"],
  [6666, "SQLITE_IOERR_CONVPATH"],
  [6922, "SQLITE_IOERR_VNODE"],
  [7178, "SQLITE_IOERR_AUTH"],
  [7434, "SQLITE_IOERR_BEGIN_ATOMIC"],
  [7690, "SQLITE_IOERR_COMMIT_ATOMIC"],
  [7946, "SQLITE_IOERR_ROLLBACK_ATOMIC"],
  [8202, "SQLITE_IOERR_DATA"],
  [8458, "SQLITE_IOERR_CORRUPTFS"],
  [8714, "SQLITE_IOERR_IN_PAGE"],
  [262, "SQLITE_LOCKED_SHAREDCACHE"],
  [518, "SQLITE_LOCKED_VTAB"],
  [261, "SQLITE_BUSY_RECOVERY"],
  [517, "SQLITE_BUSY_SNAPSHOT"],
  [270, "SQLITE_CANTOPEN_NOTEMPDIR"],
  [526, "SQLITE_CANTOPEN_ISDIR"],
  [782, "SQLITE_CANTOPEN_FULLPATH"],
  [1038, "SQLITE_CANTOPEN_CONVPATH"],
  [1294, "SQLITE_CANTOPEN_DIRTYWAL"],
  [1550, "SQLITE_CANTOPEN_SYMLINK"],
  [267, "SQLITE_CORRUPT_VTAB"],
  [523, "SQLITE_CORRUPT_SEQUENCE"],
  [779, "SQLITE_CORRUPT_INDEX"],
  [264, "SQLITE_READONLY_RECOVERY"],
  [520, "SQLITE_READONLY_CANTLOCK"],
  [776, "SQLITE_READONLY_ROLLBACK"],
  [1032, "SQLITE_READONLY_DBMOVED"],
  [1288, "SQLITE_READONLY_CANTINIT"],
  [1544, "SQLITE_READONLY_DIRECTORY"],
  [516, "SQLITE_ABORT_ROLLBACK"],
  [275, "SQLITE_CONSTRAINT_CHECK"],
  [531, "SQLITE_CONSTRAINT_COMMITHOOK"],
  [787, "SQLITE_CONSTRAINT_FOREIGNKEY"],
  [1043, "SQLITE_CONSTRAINT_FUNCTION"],
  [1299, "SQLITE_CONSTRAINT_NOTNULL"],
  [1555, "SQLITE_CONSTRAINT_PRIMARYKEY"],
  [1811, "SQLITE_CONSTRAINT_TRIGGER"],
  [2067, "SQLITE_CONSTRAINT_UNIQUE"],
  [2323, "SQLITE_CONSTRAINT_VTAB"],
  [2579, "SQLITE_CONSTRAINT_ROWID"],
  [2835, "SQLITE_CONSTRAINT_PINNED"],
  [3091, "SQLITE_CONSTRAINT_DATATYPE"],
  [283, "SQLITE_NOTICE_RECOVER_WAL"],
  [539, "SQLITE_NOTICE_RECOVER_ROLLBACK"],
  [795, "SQLITE_NOTICE_RBU"],
  [284, "SQLITE_WARNING_AUTOINDEX"],
  [279, "SQLITE_AUTH_USER"],
  [256, "SQLITE_OK_LOAD_PERMANENTLY"],
  [512, "SQLITE_OK_SYMLINK"],
]);

/** The name of a SQLite result code, e.g. 2067 -> `SQLITE_CONSTRAINT_UNIQUE`; an unknown extended code falls back to its primary code's name. */
export function sqliteCodeName(errcode: number): string {
  return SQLITE_CODE_NAMES.get(errcode) ?? SQLITE_CODE_NAMES.get(errcode & 0xff) ?? `UNKNOWN_SQLITE_ERROR_${errcode}`;
}

/**
 * Gives an error node:sqlite threw (`code: "ERR_SQLITE_ERROR"` with the
 * numeric `errcode`) the better-sqlite3 style `code` (`SQLITE_BUSY`,
 * `SQLITE_CONSTRAINT_UNIQUE`, ...); `errcode` and `errstr` stay. Any other
 * value is returned as it is.
 */
export function withSqliteCodeName(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const fields = error as Error & { code?: unknown; errcode?: unknown };
  if (fields.code !== "ERR_SQLITE_ERROR" || typeof fields.errcode !== "number") return error;
  Object.defineProperty(error, "code", { value: sqliteCodeName(fields.errcode), writable: true, enumerable: true, configurable: true });
  return error;
}
