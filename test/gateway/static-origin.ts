/**
 * One web origin on loopback serving a production build as its host would, except that taskpane.html loads
 * Microsoft's Office.js client from @microsoft/office-js and the Office stub, from this origin, instead of
 * Office.js from Microsoft's CDN (the test machine is offline).
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".png": "image/png", ".xml": "application/xml" };
/** Office.js's script tag in the built page (html-webpack-plugin may drop the quotes when it minifies). */
const OFFICE_JS = /<script src="?https:\/\/appsforoffice\.microsoft\.com\/lib\/1\/hosted\/office\.js"?><\/script>/;

export async function serveOrigin(dist: string, stubFile: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    try {
      if (path === "/office-stub.js" || path === "/excel-web.js") {
        res.writeHead(200, { "content-type": TYPES[".js"] });
        res.end(await readFile(path === "/office-stub.js" ? stubFile : require.resolve("@microsoft/office-js/dist/excel-web-16.00.js")));
        return;
      }
      const file = normalize(join(dist, path));
      if (!file.startsWith(dist)) throw new Error("outside");
      let data: Buffer | string = await readFile(file);
      if (path === "/taskpane.html") {
        const html = data.toString("utf8");
        if (!OFFICE_JS.test(html)) throw new Error("taskpane.html no longer loads Office.js as expected");
        data = html.replace(OFFICE_JS, '<script src="excel-web.js"></script><script src="office-stub.js"></script>');
      }
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(data);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}
