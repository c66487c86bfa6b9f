// Types of csvCell.mjs.
export function csvCell(value: string | number | null | undefined): string;
