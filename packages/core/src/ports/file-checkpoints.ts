/**
 * FileCheckpoints: Write, Edit and Delete record the pre-image of every file
 * they touch (content, mode, or absence) before changing it, so a host can
 * rewind a checkpoint (e.g. one conversation turn) to exactly the old bytes.
 * Core defines the port; `@agent-tools/checkpoints` implements it over the
 * storage port.
 */
import type { Workspace } from "../workspace/workspace-port.js";

/** One file change a tool is about to make, inside a checkpoint. */
export interface FileChangeRequest {
  /** The checkpoint (host-chosen id, e.g. `<conversation>:<turn>`). */
  readonly checkpointId: string;
  /** Canonical absolute path of the file. */
  readonly path: string;
  /** The tool making the change: `Write`, `Edit`, `Delete`, ... */
  readonly toolName: string;
  /** The tool call's id. */
  readonly callId: string;
  /**
   * The workspace the file is in, when it is not the local disk
   * (`capabilities.localPaths` false): `path` is then a path of that
   * workspace, and the recorder reads it through `workspace.fs`. Absent: a
   * file of this host.
   */
  readonly workspace?: Workspace;
}

/** Records pre-images; given to tools as `ToolPorts.fileCheckpoints`. */
export interface FileCheckpointRecorder {
  /**
   * Records the file's current state (bytes and mode, or absence) unless this
   * checkpoint already holds a pre-image of it. Resolves before the tool may
   * change the file; a failure aborts the change (the tool answers an error).
   */
  beforeChange(request: FileChangeRequest): Promise<void>;
  /**
   * Records the state the tool left (hash and mode, or absence) after its
   * change, so a later rewind can tell an outside change from its own. The
   * file tools call it after a failed change too (with what is on disk then),
   * whenever `beforeChange` succeeded; a failure here is logged, not answered.
   */
  afterChange(request: FileChangeRequest): Promise<void>;
}
