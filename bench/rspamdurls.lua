-- rspamdurls.lua: each URL rspamd finds in each message given, with its
-- flags, one line each (run by rspamdcompare.sh):
--   FILE <TAB> URL <TAB> HOST <TAB> TLD <TAB> FLAGS <TAB> SPOOFED <TAB> PHISHED_FROM
-- FLAGS are rspamd's URL flags (comma-separated, sorted); SPOOFED is what
-- rspamd_util.is_utf_spoofed says of the URL's registrable domain (the check
-- its OMOGRAPH_URL rule makes of a link alone); PHISHED_FROM is the URL the anchor's text showed,
-- when rspamd's HTML parser flagged the link phished.
-- Usage: rspamadm lua -a FILE,FILE,... bench/rspamdurls.lua
local rspamd_task = require "rspamd_task"
local rspamd_url = require "rspamd_url"
local rspamd_util = require "rspamd_util"

local ok, err = rspamd_config:load_ucl('/etc/rspamd/rspamd.conf')
if not ok then error(err) end
ok, err = rspamd_config:parse_rcl({'logging', 'worker'})
if not ok then error(err) end
rspamd_url.init(rspamd_config:get_tld_path())

local files = arg or {...}
if #files == 1 and files[1]:find(',') then
  local t = {}
  for f in files[1]:gmatch('[^,]+') do table.insert(t, f) end
  files = t
end

for _, fname in ipairs(files) do
  local res, task = rspamd_task.load_from_file(fname, rspamd_config)
  if res and task:process_message() then
    for _, u in ipairs(task:get_urls(true) or {}) do
      local fl = {}
      for k, _ in pairs(u:get_flags()) do table.insert(fl, k) end
      table.sort(fl)
      local host = u:get_host() or ''
      local tld = u:get_tld() or ''
      local spoofed = false
      if tld ~= '' then
        -- As the OMOGRAPH_URL rule (rules/misc.lua) checks a link alone.
        local s = rspamd_util.is_utf_spoofed(tld)
        spoofed = s and true or false
      end
      local phished = ''
      if u:is_phished() then
        local p = u:get_phished()
        if p then phished = p:get_text() end
      end
      print(table.concat({fname, u:get_text(), host, tostring(u:get_tld() or ''),
        table.concat(fl, ','), tostring(spoofed), phished}, '\t'))
    end
  end
  if task and type(task) ~= 'string' then task:destroy() end
end
