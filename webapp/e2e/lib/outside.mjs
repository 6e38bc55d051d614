// Another site for the tests that need one: a small HTTP server on its own
// port of the loopback address, so another origin than the portal's (and,
// named "localhost" instead of 127.0.0.1, another site). Its pages:
//
//   /page                  a plain page (what a dashboard's web page module frames)
//   /frame?src=ADDRESS     a page that frames ADDRESS
//   /post?action=ADDRESS   a page with a form that posts to ADDRESS
import { createServer } from "node:http";

const esc = (s) => String(s ?? "").replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** startOutside starts the site; close() stops it. */
export async function startOutside() {
  const srv = createServer((req, res) => {
    const url = new URL(req.url, "http://outside");
    const bodies = {
      "/page": "<h1>Outside</h1><p>A page of another site.</p>",
      "/frame": `<iframe title="framed" src="${esc(url.searchParams.get("src"))}" width="800" height="600"></iframe>`,
      "/post": `<form method="post" action="${esc(url.searchParams.get("action"))}"><button>Go</button></form>`,
    };
    const body = bodies[url.pathname];
    res.writeHead(body ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><title>Outside</title></head><body>${body ?? ""}</body></html>`);
  });
  await new Promise((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const port = srv.address().port;
  return {
    port,
    /** The site's address as 127.0.0.1 (the portal's host, another port: same site, another origin). */
    url: `http://127.0.0.1:${port}`,
    /** The site's address as localhost: another site than the portal's. */
    otherSite: `http://localhost:${port}`,
    close: () => new Promise((resolve) => srv.close(resolve)),
  };
}
