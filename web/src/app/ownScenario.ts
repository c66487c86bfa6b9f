// What the page checks of an own scenario's text before it goes to the simulator: a file
// whose task count alone rules it out is refused at once, with the count, rather than handed to
// a TOML parse that takes minutes over 100,000 tables before the simulator's own check answers.

/** The simulator's bound (scenario validation: "at most 4096 tasks"). */
export const MAX_TASKS = 4096;

const TASK_TABLE = /^[ \t]*\[\[[ \t]*tasks[ \t]*\]\]/gm;

/** Why `text` cannot run, found without parsing it, or null. */
export function ownScenarioProblem(text: string): string | null {
  let n = 0;
  for (TASK_TABLE.lastIndex = 0; TASK_TABLE.exec(text);) n++;
  return n > MAX_TASKS
    ? `tasks: ${n.toLocaleString('en')} [[tasks]] tables, over the ${MAX_TASKS.toLocaleString('en')} a scenario may have`
    : null;
}
