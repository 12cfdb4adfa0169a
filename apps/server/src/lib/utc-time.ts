/** A moment as people read it in messages and emails: `2026-01-16 12:00:30 UTC` (never rounded down). */
export function utcText(moment: Date): string {
  const seconds = new Date(Math.ceil(moment.getTime() / 1000) * 1000);
  return `${seconds.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
