// A client of the notes server over Streamable HTTP that signs the user in with OAuth 2.1:
//   node --import tsx examples/notes/src/client.ts [server URL] [text of a note to add]
// Its first request gets a 401; the client discovers the authorization server, registers,
// sends the browser to the sign-in page and takes the code on a loopback redirect
// (http://127.0.0.1:<port>/callback); adding a note needs notes:write, for which it steps up
// when the server's 403 asks. Default server URL: http://127.0.0.1:3000/mcp.
import { spawn } from "node:child_process";
import { httpChannel } from "@mcp-gen/runtime";
import { loopbackRedirect } from "@mcp-gen/runtime/node";
import { oauth } from "@mcp-gen/runtime/oauth"; // needs `npm install oauth4webapi`
import { connectNotesClient } from "./mcp/index.js";

/** Opens `url` in the user's browser with the platform's opener (no shell); prints it too. */
function openBrowser(url: URL): void {
  process.stderr.write(`notes client: sign in at ${url.href}\n`);
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open"]
      : process.platform === "win32"
        ? ["rundll32", "url.dll,FileProtocolHandler"]
        : ["xdg-open"];
  spawn(command!, [...args, url.href], { stdio: "ignore", detached: true })
    .on("error", () => process.stderr.write("notes client: no browser opener found; open the URL above yourself\n"))
    .unref();
}

const [serverUrl = "http://127.0.0.1:3000/mcp", text] = process.argv.slice(2);
const redirect = await loopbackRedirect({ open: openBrowser });
const auth = oauth({
  redirectUri: redirect.redirectUri,
  redirectToAuthorization: redirect.redirectToAuthorization,
  clientName: "notes example client",
});
const notes = await connectNotesClient(httpChannel(serverUrl, { auth }));
try {
  if (text !== undefined) await notes.tools.addNote({ text });
  const listed = await notes.tools.listNotes();
  for (const block of listed.content) if (block.type === "text") console.log(block.text);
} finally {
  await notes.close();
  redirect.close();
}
