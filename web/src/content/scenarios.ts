// The scenario registry: every file in content/scenarios/, bundled as text at build time.
// The simulator owns the schema; this module only maps ids to text.
const files = import.meta.glob('../../../content/scenarios/*.toml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export interface ScenarioSource {
  id: string;
  text: string;
}

export const scenarios: readonly ScenarioSource[] = Object.entries(files)
  .map(([path, text]) => ({ id: path.replace(/^.*\//, '').replace(/\.toml$/, ''), text }))
  .sort((a, b) => a.id.localeCompare(b.id));

export const DEFAULT_SCENARIO = 'x86-munmap-shootdown';

export function findScenario(id: string): ScenarioSource | undefined {
  return scenarios.find((s) => s.id === id);
}
