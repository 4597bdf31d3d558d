/** Copies text; false when the browser refuses (no permission, an insecure origin): the text stays on screen to copy by hand. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
