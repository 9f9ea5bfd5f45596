/**
 * How large a task list may grow. A real plan needs a title of a line or two,
 * a description of a few paragraphs and tens of tasks; the limits leave ample
 * room for that and keep one list (stored, and sent back whole after every
 * change) to a few megabytes at most, whatever a model sends.
 */
export const TASK_LIMITS = Object.freeze({
  /** Longest `subject`, in characters (after trimming). */
  subjectChars: 2_000,
  /** Longest `activeForm`, in characters (after trimming). */
  activeFormChars: 2_000,
  /** Longest `description`, in characters (after trimming). */
  descriptionChars: 20_000,
  /** Longest `taskId` argument, in characters (ids are numeric strings such as "12"). */
  taskIdChars: 20,
  /** Most tasks one list holds (ids are never reused, so completed tasks count). */
  tasksPerList: 200,
  /** Most characters of subject, description and activeForm over every task of one list. */
  listChars: 1_000_000,
});

/** Characters of a task's text fields, as {@link TASK_LIMITS}.listChars counts them. */
export function taskTextChars(task: { readonly subject: string; readonly description: string; readonly activeForm: string }): number {
  return task.subject.length + task.description.length + task.activeForm.length;
}
