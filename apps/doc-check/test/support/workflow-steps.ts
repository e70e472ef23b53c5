// Reads a documented GitHub Actions workflow of one job into what a test can run: the job's `env`
// and each step's `run` script or `uses` action with its `with`. Only the shape the samples use is
// understood (block mappings, `run: |` literals, no anchors or flow collections); anything else
// fails loudly, so a sample cannot grow a step this reader would skip.

export interface WorkflowStep {
  readonly name?: string;
  readonly if?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly with: Record<string, string>;
}

export interface WorkflowJob {
  readonly name: string;
  readonly env: Record<string, string>;
  readonly steps: WorkflowStep[];
}

const indentOf = (line: string) => /^ */.exec(line)![0].length;
const KEY_VALUE = /^([\w.-]+):(?:\s+(.*))?$/;

function unquote(value: string): string {
  if (/^'.*'$/.test(value)) return value.slice(1, -1).replaceAll("''", "'");
  if (/^".*"$/.test(value)) return JSON.parse(value) as string;
  return value;
}

export function workflowJob(yaml: string): WorkflowJob {
  const lines = yaml.split('\n').filter((l) => l.trim() !== '' && !/^\s*#/.test(l));
  const fail = (i: number, why: string): never => {
    throw new Error(`workflow line "${lines[i]?.trim()}": ${why} (this reader knows one job with env and steps)`);
  };
  const jobsAt = lines.indexOf('jobs:');
  if (jobsAt < 0 || indentOf(lines[jobsAt + 1] ?? '') !== 2) fail(jobsAt, 'no job under jobs:');
  const name = KEY_VALUE.exec(lines[jobsAt + 1]!.trim())![1]!;
  const env: Record<string, string> = {};
  const steps: WorkflowStep[] = [];
  // A block of `key: value` lines at `indent`, from line i; returns where it ends.
  const mapping = (i: number, indent: number, into: Record<string, string>): number => {
    for (; i < lines.length && indentOf(lines[i]!) >= indent; i++) {
      if (indentOf(lines[i]!) !== indent) fail(i, 'a nested value where a plain value was expected');
      const kv = KEY_VALUE.exec(lines[i]!.trim()) ?? fail(i, 'not a key: value line');
      into[kv[1]!] = unquote(kv[2] ?? '');
    }
    return i;
  };
  let i = jobsAt + 2;
  while (i < lines.length && indentOf(lines[i]!) === 4) {
    const kv = KEY_VALUE.exec(lines[i]!.trim()) ?? fail(i, 'not a key of the job');
    if (kv[1] === 'env') i = mapping(i + 1, 6, env);
    else if (kv[1] === 'steps') {
      i++;
      while (i < lines.length && indentOf(lines[i]!) === 6) {
        if (!lines[i]!.trimStart().startsWith('- ')) fail(i, 'a step must start with "- "');
        const step: Record<string, string> = {};
        const withs: Record<string, string> = {};
        // The step's first key sits after "- ", at the indent of the keys that follow it.
        lines[i] = ' '.repeat(8) + lines[i]!.trimStart().slice(2);
        while (i < lines.length && indentOf(lines[i]!) === 8) {
          const entry = KEY_VALUE.exec(lines[i]!.trim()) ?? fail(i, 'not a key of the step');
          const [, key, value] = entry;
          i++;
          if (key === 'with') i = mapping(i, 10, withs);
          else if (value === '|') {
            const block: string[] = [];
            for (; i < lines.length && indentOf(lines[i]!) >= 10; i++) block.push(lines[i]!.slice(10));
            step[key!] = block.join('\n');
          } else if (value === undefined || /^[|>]/.test(value)) fail(i - 1, 'an unsupported block value');
          else step[key!] = unquote(value);
        }
        steps.push({ ...step, with: withs } as WorkflowStep);
      }
    } else if (kv[2] !== undefined) i++;
    else fail(i, 'an unsupported nested key of the job');
  }
  if (i < lines.length) fail(i, 'more than one job, or content after the job');
  return { name, env, steps };
}
