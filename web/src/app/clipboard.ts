// Copying text for the user: false when the browser refuses (no permission, no secure context),
// so the caller can show the text to copy by hand instead.
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
