// Text into HTML: every character that could open markup or end an attribute becomes a numeric reference.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
