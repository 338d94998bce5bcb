// Print each link that linkify-it (default options) finds in standard input,
// one per line. linkify-it works on a whole string, so the input is read
// whole first. Run with NODE_PATH pointing at a node_modules holding linkify-it.
'use strict';
const mod = require('linkify-it');
const LinkifyIt = mod.LinkifyIt || mod.default || mod; // v6 exports { LinkifyIt }, v4 the class
const linkify = new LinkifyIt();
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const text = Buffer.concat(chunks).toString('utf8');
  const matches = linkify.match(text) || [];
  const out = [];
  for (const m of matches) out.push(m.url);
  process.stdout.write(out.length ? out.join('\n') + '\n' : '');
});
