// The page's one socket: the session token in the subprotocol, a hello on every (re)connect,
// reconnection with backoff (250 ms doubling to 8 s, jittered), and a plain "is it open" the
// page asks before it lets anyone edit. It holds no state of the game.
// The server's close codes the page acts on (bot/web/server.py): 4003 the token was refused
// (the page exchanges its link again), 4009 the same seat opened a newer page (this one stops).
export function openSocket(token, { onFrame, onOnline, onOffline, onRefused, onElsewhere }) {
  let ws = null, retry = 0, timer = null, version = () => 0;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/web/socket", ["rummy", token]);
    ws.onopen = () => { retry = 0; onOnline(); ws.send(JSON.stringify({ t: "hello", v: version() })); };
    ws.onmessage = (event) => { let m; try { m = JSON.parse(event.data); } catch (e) { return; } onFrame(m); };
    ws.onclose = (event) => {
      ws = null; onOffline();
      if (event.code === 4003) { onRefused(); return; }
      if (event.code === 4009) { onElsewhere(); return; }
      clearTimeout(timer);
      const wait = Math.min(8000, 250 * 2 ** retry++);
      timer = setTimeout(connect, wait / 2 + Math.random() * wait / 2);
    };
  };
  connect();
  return {
    open: () => !!ws && ws.readyState === 1,
    send(msg) { if (!ws || ws.readyState !== 1) return false; ws.send(JSON.stringify(msg)); return true; },
    versionFrom(fn) { version = fn; },
    // another game's session (↻ Rematch): the socket reconnects with its token at once
    switchTo(next) { token = next; retry = 0; if (ws) ws.close(); else { clearTimeout(timer); connect(); } },
  };
}
