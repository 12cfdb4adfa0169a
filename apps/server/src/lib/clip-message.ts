/** Characters of a message kept in a response, a log line or a stored status (4 KiB of ASCII). */
export const MESSAGE_MAX = 4096;

/**
 * `text` cut to at most `max` characters (max ≥ 64), saying how much was left out: a message whose
 * size a user chose (a strategy's error) must not reach a response, a log line or a row whole.
 */
export function clipMessage(text: string, max = MESSAGE_MAX): string {
  if (text.length <= max) return text;
  // Room for the note: " … (9007199254740991 more characters)" is 38 characters.
  const kept = max - 40;
  return `${text.slice(0, kept)} … (${text.length - kept} more characters)`;
}
