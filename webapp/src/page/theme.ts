import { api } from "@/lib/api";

// setDark switches the theme at once and stores the choice: in the user's
// settings when signed in, in a cookie for visitors. The server renders the
// stored theme into <html data-theme>, so no page load flashes the other one.
export async function setDark(dark: boolean, signedIn: boolean): Promise<void> {
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  document.cookie = `theme=${dark ? "dark" : "light"}; Path=/; Max-Age=31536000; SameSite=Lax`;
  if (signedIn) await api("POST", "/api/settings", { darkMode: dark });
}
