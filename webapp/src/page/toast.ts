// The snackbar shows a text bottom right for 3000 ms, then it clears.
export const toastMillis = 3000;

let timer: number | undefined;

export function showToast(text: string, level: "success" | "error"): void {
  const bar = document.getElementById("snackbar");
  if (!bar) return;
  bar.textContent = text;
  bar.dataset.level = level;
  bar.classList.add("visible");
  window.clearTimeout(timer);
  timer = window.setTimeout(() => {
    bar.classList.remove("visible");
    bar.textContent = "";
  }, toastMillis);
}

const cookieName = "fieldhub_toast";

// takeToastCookie reads and clears the message a redirect carried.
export function takeToastCookie(): { level: string; text: string } | null {
  const entry = document.cookie.split("; ").find((c) => c.startsWith(cookieName + "="));
  if (!entry) return null;
  document.cookie = `${cookieName}=; Max-Age=0; Path=/; SameSite=Lax`;
  try {
    return JSON.parse(decodeURIComponent(entry.slice(cookieName.length + 1))) as { level: string; text: string };
  } catch {
    return null;
  }
}
