// toast asks the server page's script (page/main.ts) to show a snackbar: the
// islands do not draw their own.
export function toast(level: "success" | "error", text: string): void {
  document.dispatchEvent(new CustomEvent("fieldhub:toast", { detail: { level, text } }));
}
