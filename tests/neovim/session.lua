-- One headless Neovim (0.7+) session with `safety-profile lsp` attached, driven by a plan in
-- JSON (the file named by $SAFETY_PROFILE_PLAN) and writing what the editor shows, as JSON, to
-- the plan's `output`. Only APIs Neovim 0.7 has: vim.lsp.start_client and buf_attach_client.
--
-- plan = {server = {cmd...}, yaml_server = {cmd...} or nil, root = DIR, output = FILE,
--         files = {PATH...},                     -- open each, record its diagnostics
--         edits = {{file =, steps = {{lines =, expect =}...}}...},  -- edit, wait for `expect`
--         fixes = {{file =, code =}...},          -- apply the first quick fix for `code`
--         both = {PATH...},                       -- open with yaml-language-server attached too
--         rooted = {{root =, files = {PATH...}}...},  -- a client of its own, opened in `root`
--         asks = {{file =, line =, col =}...}}    -- completion and hover at that place
--                                                 -- (1-based line, 0-based byte column)
local plan = vim.json.decode(io.open(os.getenv("SAFETY_PROFILE_PLAN")):read("*a"))
local TIMEOUT = 15000
vim.o.hidden = true -- buffers edited by the plan stay open, unsaved, while others open

local published = {} -- by client id, then URI: how many times diagnostics were published
local original = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  original(err, result, ctx, config)
  local counts = published[ctx.client_id] or {}
  published[ctx.client_id] = counts
  counts[result.uri] = (counts[result.uri] or 0) + 1
end

local function start(name, cmd, settings)
  return vim.lsp.start_client({
    name = name,
    cmd = cmd,
    root_dir = plan.root,
    settings = settings or {},
    flags = { debounce_text_changes = 50 },
  })
end

local ours = start("safety-profile", plan.server)
local yaml_server = nil
if plan.yaml_server then
  yaml_server = start("yaml-language-server", plan.yaml_server, {
    yaml = { validate = true, schemaStore = { enable = false } },
  })
end

local function count(client, uri)
  return (published[client] or {})[uri] or 0
end

-- What the editor shows from one server: 0-based line, byte column, message, code, severity.
local function shown(buf, client)
  local items = {}
  for _, d in ipairs(vim.diagnostic.get(buf, { namespace = vim.lsp.diagnostic.get_namespace(client) })) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(items, {
      line = d.lnum,
      column = d.col,
      message = d.message,
      code = d.code or lsp.code,
      severity = d.severity,
      source = d.source or lsp.source,
    })
  end
  return items
end

-- Open a file with the servers attached; wait for each to publish for it.
local function open(path, clients)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  local seen = {}
  for _, client in ipairs(clients) do
    vim.lsp.buf_attach_client(buf, client)
    seen[client] = vim.wait(TIMEOUT, function() return count(client, uri) > 0 end, 10)
  end
  return buf, uri, seen
end

local output = { files = {}, edits = {}, fixes = {}, both = {}, rooted = {} }

for _, path in ipairs(plan.files or {}) do
  local buf, _, seen = open(path, { ours })
  output.files[path] = { published = seen[ours], diagnostics = shown(buf, ours) }
end

for _, edit in ipairs(plan.edits or {}) do
  local buf, uri = open(edit.file, { ours })
  local steps = {}
  for _, step in ipairs(edit.steps) do
    local before = count(ours, uri)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, step.lines)
    local ok = vim.wait(TIMEOUT, function()
      return count(ours, uri) > before and #shown(buf, ours) == step.expect
    end, 10)
    table.insert(steps, { reached = ok, diagnostics = shown(buf, ours) })
  end
  output.edits[edit.file] = steps
end

-- A quick fix the way a user applies one: cursor on the problem, :lua vim.lsp.buf.code_action(),
-- the first choice picked from the menu (vim.ui.select).
for _, fix in ipairs(plan.fixes or {}) do
  local buf, uri = open(fix.file, { ours })
  local applied = nil
  vim.ui.select = function(items, _, on_choice)
    local choice = items[1]
    applied = choice and (choice.action or choice[2]).title or false
    on_choice(choice, 1)
  end
  for _, d in ipairs(vim.diagnostic.get(buf, { namespace = vim.lsp.diagnostic.get_namespace(ours) })) do
    if applied == nil and (d.code or ((d.user_data or {}).lsp or {}).code) == fix.code then
      vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
      local before = count(ours, uri)
      vim.lsp.buf.code_action({ only = { "quickfix" } })
      vim.wait(TIMEOUT, function() return applied ~= nil and count(ours, uri) > before end, 10)
    end
  end
  output.fixes[fix.file] = {
    applied = applied or vim.NIL,
    lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false),
    diagnostics = shown(buf, ours),
  }
end

for _, path in ipairs(plan.both or {}) do
  local buf, _, seen = open(path, { ours, yaml_server })
  output.both[path] = {
    published = seen[ours] and seen[yaml_server],
    ours = shown(buf, ours),
    yaml_server = shown(buf, yaml_server),
  }
end

-- The folder the editor opened is not the repository's top (a workspace in actions/).
for index, entry in ipairs(plan.rooted or {}) do
  local client = vim.lsp.start_client({
    name = "safety-profile-" .. index,
    cmd = plan.server,
    root_dir = entry.root,
    flags = { debounce_text_changes = 50 },
  })
  for _, path in ipairs(entry.files) do
    local buf, _, seen = open(path, { client })
    output.rooted[path] = { published = seen[client], diagnostics = shown(buf, client) }
  end
end

-- Completion and hover as the editor asks for them at the cursor (the position it would send
-- for <C-x><C-o> with vim.lsp.omnifunc, or for vim.lsp.buf.hover()).
output.asks = {}
for _, ask in ipairs(plan.asks or {}) do
  local buf = open(ask.file, { ours })
  vim.api.nvim_win_set_cursor(0, { ask.line, ask.col })
  local params = vim.lsp.util.make_position_params()
  local function result(method)
    local answers = vim.lsp.buf_request_sync(buf, method, params, TIMEOUT) or {}
    local answer = answers[ours] or {}
    return answer.result or vim.NIL
  end
  local completion = result("textDocument/completion")
  local items = completion ~= vim.NIL and (completion.items or completion) or {}
  local offered = {}
  for _, item in ipairs(items) do
    table.insert(offered, { label = item.label, insert = item.textEdit and item.textEdit.newText or vim.NIL })
  end
  local hover = result("textDocument/hover")
  table.insert(output.asks, {
    file = ask.file,
    completion = offered,
    hover = hover ~= vim.NIL and hover.contents.value or vim.NIL,
  })
end

local file = io.open(plan.output, "w")
file:write(vim.json.encode(output))
file:close()
vim.cmd("qa!")
