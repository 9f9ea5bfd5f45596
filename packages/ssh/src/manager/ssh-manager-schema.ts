import { z } from "zod";

/** The actions of SSHManager. */
export const SSH_MANAGER_ACTIONS = [
  "list_hosts",
  "list_sessions",
  "create_session",
  "read_session",
  "send_input",
  "close_session",
  "exec",
  "sftp_list",
  "sftp_stat",
  "sftp_read_text",
  "sftp_write_text",
  "sftp_mkdir",
  "sftp_rename",
  "sftp_delete",
] as const;

/** One of {@link SSH_MANAGER_ACTIONS}. */
export type SshManagerAction = (typeof SSH_MANAGER_ACTIONS)[number];

/** How `create_session` treats an open session on the same host. */
export const SSH_SESSION_STRATEGIES = ["reuse_or_create", "new", "require_existing"] as const;

/** Limits of SSHManager's arguments and buffers. */
export const SSH_MANAGER_LIMITS = Object.freeze({
  /** read_session: bytes returned per read by default, and at most. */
  readDefaultBytes: 16 * 1024,
  readMaxBytes: 256 * 1024,
  /** Unread output a session keeps; older output is dropped (and counted). */
  sessionBufferBytes: 1024 * 1024,
  /** exec: output kept by default, and at most. */
  execDefaultBytes: 64 * 1024,
  execMaxBytes: 1024 * 1024,
  /** exec: timeout by default, and at most. */
  execDefaultTimeoutMs: 60_000,
  execMaxTimeoutMs: 30 * 60_000,
  /** read_session: how long to wait for output when none is buffered, by default and at most. */
  readDefaultWaitMs: 1_000,
  readMaxWaitMs: 60_000,
  /** sftp_read_text: bytes returned by default, and at most. */
  sftpReadDefaultBytes: 256 * 1024,
  sftpReadMaxBytes: 4 * 1024 * 1024,
  /** sftp_write_text: largest content, in bytes. */
  sftpWriteMaxBytes: 16 * 1024 * 1024,
  /** sftp_list: entries listed at most. */
  sftpListMaxEntries: 1_000,
  /**
   * Open sessions per host and registry: each holds a channel of the host's
   * connection (8 at most), beside SFTP and exec's control and command channels.
   */
  maxSessionsPerHost: 4,
  /** Sessions listed (open or ended) per registry before ended ones are forgotten. */
  maxListedSessions: 32,
  /** send_input: largest input, in characters. */
  inputMaxChars: 64 * 1024,
});

/**
 * The input of SSHManager: one flat object; each action reads the fields it
 * needs and refuses the ones it does not take. Ranges and the rules between
 * fields are checked by the tool so that its messages name the fix.
 */
export const sshManagerInputSchema = z.object({
  action: z.enum(SSH_MANAGER_ACTIONS).describe("What to do."),
  host_id: z.string().optional().describe("A host from list_hosts (create_session, exec, sftp_*)."),
  session_id: z.string().optional().describe("A session from create_session / list_sessions (read_session, send_input, close_session)."),
  command: z.string().optional().describe("exec: the command line, run by the login shell in the host's root."),
  input: z.string().optional().describe("send_input: text typed into the session; a newline presses Enter."),
  path: z.string().optional().describe("sftp_*: a remote path; relative paths start at the host's root."),
  to: z.string().optional().describe("sftp_rename: the new path."),
  content: z.string().optional().describe("sftp_write_text: the whole new file, UTF-8."),
  strategy: z
    .enum(SSH_SESSION_STRATEGIES)
    .optional()
    .describe("create_session: reuse_or_create (default: the host's open session if any), new, or require_existing."),
  timeout_ms: z
    .number()
    .optional()
    .describe(
      `exec: kill the command after this long (default ${SSH_MANAGER_LIMITS.execDefaultTimeoutMs}, max ${SSH_MANAGER_LIMITS.execMaxTimeoutMs}); read_session: wait this long for output when none is buffered (default ${SSH_MANAGER_LIMITS.readDefaultWaitMs}).`,
    ),
  max_bytes: z.number().optional().describe("read_session / exec / sftp_read_text: the most output bytes to return."),
});

/** Parsed SSHManager input. */
export type SshManagerInput = z.output<typeof sshManagerInputSchema>;

/** The fields each action takes besides `action` (any other given field is refused). */
export const SSH_ACTION_FIELDS: Readonly<Record<SshManagerAction, readonly (keyof SshManagerInput)[]>> = Object.freeze({
  list_hosts: [],
  list_sessions: ["host_id"],
  create_session: ["host_id", "strategy"],
  read_session: ["session_id", "max_bytes", "timeout_ms"],
  send_input: ["session_id", "input"],
  close_session: ["session_id"],
  exec: ["host_id", "command", "timeout_ms", "max_bytes"],
  sftp_list: ["host_id", "path"],
  sftp_stat: ["host_id", "path"],
  sftp_read_text: ["host_id", "path", "max_bytes"],
  sftp_write_text: ["host_id", "path", "content"],
  sftp_mkdir: ["host_id", "path"],
  sftp_rename: ["host_id", "path", "to"],
  sftp_delete: ["host_id", "path"],
});

/** The description the model reads (sent with every request: kept short). */
export const SSH_MANAGER_DESCRIPTION = [
  "Works on remote machines the user configured (list_hosts shows them). Credentials are the user's: never ask for or print them.",
  "Sessions (an interactive shell on a PTY): create_session (host_id, strategy), send_input (session_id, input; a newline presses Enter), read_session (session_id; output since the last read), close_session, list_sessions.",
  "exec (host_id, command): one command, its output and exit code; timeout_ms kills it.",
  "Files over SFTP (host_id, path): sftp_list, sftp_stat, sftp_read_text, sftp_write_text (content; replaces the file atomically), sftp_mkdir, sftp_rename (to), sftp_delete (a file or an empty directory).",
].join(" ");
