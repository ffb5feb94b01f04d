// The one module that reads window.Telegram. Telegram's script (vendored, 65 % of the page's
// bytes) is loaded only when the page was opened as a Mini App: Telegram puts tgWebAppData in
// the address's hash (and keeps it in sessionStorage across a reload inside the app).
const inside = () => {
  if (/[#&]tgWebAppData=/.test(location.hash)) return true;
  try { return !!sessionStorage.getItem("__telegram__initParams"); } catch (e) { return false; }
};

let tg = null;

export async function loadTelegram() {
  if (!inside()) return null;
  await new Promise((resolve) => {
    const s = document.createElement("script");
    s.src = new URL("telegram-web-app.js", import.meta.url).href;
    s.onload = s.onerror = resolve;
    document.head.append(s);
  });
  const app = window.Telegram && window.Telegram.WebApp;
  tg = app && app.initData ? app : null;
  if (tg) {
    document.documentElement.classList.add("telegram");
    tg.ready(); tg.expand();
    if (tg.disableVerticalSwipes) tg.disableVerticalSwipes();
  }
  return tg ? tg.initData : null;
}

export function haptic(kind) {
  if (!tg || !tg.HapticFeedback) return;
  if (kind === "error") tg.HapticFeedback.notificationOccurred("error");
  else if (kind === "turn") tg.HapticFeedback.notificationOccurred("success");
  else tg.HapticFeedback.impactOccurred(kind === "drop" ? "medium" : "light");
}

// Done as Telegram's MainButton: shown while Done is offered, enabled when the engine would take it
export function mainButton(text, shown, enabled, onClick) {
  if (!tg) return;
  const b = tg.MainButton;
  if (!b._wired) { b.onClick(onClick); b._wired = true; }
  b.setText(text);
  if (!shown) b.hide(); else if (enabled) b.show().enable(); else b.show().disable();
}

export const inTelegram = () => !!tg;
