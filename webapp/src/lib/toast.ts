// toast asks the server page's script (page/main.ts) to show a snackbar: the
// islands do not draw their own.
export function toast(level: "success" | "error", text: string): void {
  document.dispatchEvent(new CustomEvent("fieldhub:toast", { detail: { level, text } }));
}

// toastOnNextPage has the next page the browser loads show text, as a
// server redirect does (kernel/web/toast.go): through the short-lived cookie
// the page script reads and clears.
export function toastOnNextPage(level: "success" | "error", text: string): void {
  const value = encodeURIComponent(JSON.stringify({ level, text }));
  document.cookie = `fieldhub_toast=${value}; Max-Age=30; Path=/; SameSite=Lax`;
}
