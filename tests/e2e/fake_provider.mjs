// A fake LLM provider for the e2e tests: speaks the HTTP APIs of Anthropic Messages,
// OpenAI Chat Completions and Responses, Google Gemini and Ollama on 127.0.0.1,
// checks every request strictly against the documented format, and answers from
// fixtures built from the providers' documented reply shapes.
//
// Every request that breaks a rule is recorded; `GET /__violations` returns them so a
// test can assert there were none. `GET /__requests` returns the bodies received.
//
// The "model" is a fixture player: a user message mentioning "Paris and Austin" gets
// two parallel calls; one mentioning "malformed" gets (OpenAI-style providers) an
// arguments string that is not JSON; otherwise a city name gets get_weather; after tool
// results it answers with the results' text. Keys: any non-empty key except "bad-key"
// (which gets the provider's 401 error shape).
//
// Rate limits: a request whose body mentions "(busy)" gets 429 (with `retry-after: 0`)
// the first time that exact body arrives, and its answer when asked again;
// `GET /__throttled` counts the 429s sent.
//
// Run: node fake_provider.mjs [PORT]   (prints "fake provider on http://127.0.0.1:PORT")

import http from 'node:http';

const violations = [];
const requests = [];
const throttledBodies = new Set();
let throttled = 0;

function violation(provider, rule, detail) {
  violations.push({ provider, rule, detail });
}

const NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;
const GEMINI_NAME_RE = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

function isObj(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function checkSchema(provider, where, schema) {
  if (!isObj(schema)) return violation(provider, 'schema-object', `${where} is not an object`);
  if (schema.type !== 'object') violation(provider, 'schema-root-type', `${where}.type is ${JSON.stringify(schema.type)}, not "object"`);
}

const CITIES = ['Austin', 'Paris', 'Tokyo', 'London', 'Reykjavik', 'Atlantis'];

function cityOf(text) {
  return CITIES.find((c) => text.toLowerCase().includes(c.toLowerCase())) ?? null;
}

/// What the fixture model does next, provider-neutral.
/// `last` is {kind: "user", text} or {kind: "results", texts: [...]}.
function decide(last, toolNames) {
  if (last.kind === 'results') {
    return { answer: `Here is what the tools said: ${last.texts.join(' | ')}` };
  }
  const text = last.text;
  const weather = toolNames.find((n) => n === 'get_weather' || n.endsWith('get_weather'));
  if (!weather) return { answer: 'I have no tool for that.' };
  if (/paris and austin/i.test(text)) {
    return { calls: [{ name: weather, args: { city: 'Paris' } }, { name: weather, args: { city: 'Austin' } }] };
  }
  if (/malformed/i.test(text)) return { calls: [{ name: weather, args: null, raw: '{"city": "Austin"' }] };
  const city = cityOf(text);
  if (!city) return { answer: 'No tool fits; I can only talk about the weather.' };
  return { calls: [{ name: weather, args: { city } }] };
}

// ---------- Anthropic ----------
function anthropic(req, body, res) {
  const P = 'anthropic';
  const key = req.headers['x-api-key'];
  if (!key) violation(P, 'x-api-key', 'missing x-api-key header');
  if (key === 'bad-key') return send(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
  if (!req.headers['anthropic-version']) violation(P, 'anthropic-version', 'missing anthropic-version header');
  if (req.headers['anthropic-dangerous-direct-browser-access'] !== 'true') violation(P, 'browser-header', 'missing anthropic-dangerous-direct-browser-access: true');
  if (typeof body.model !== 'string' || !body.model) violation(P, 'model', 'model must be a non-empty string');
  if (!Number.isInteger(body.max_tokens)) violation(P, 'max_tokens', 'max_tokens is required');
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [i, t] of tools.entries()) {
    if (!NAME_RE.test(t.name ?? '')) violation(P, 'tool-name', `tools[${i}].name ${JSON.stringify(t.name)}`);
    checkSchema(P, `tools[${i}].input_schema`, t.input_schema);
    for (const k of Object.keys(t)) if (!['name', 'description', 'input_schema', 'cache_control', 'strict'].includes(k)) violation(P, 'tool-field', `tools[${i}] has unknown field ${k}`);
  }
  const msgs = body.messages;
  if (!Array.isArray(msgs) || msgs.length === 0) return violation(P, 'messages', 'messages must be a non-empty array'), send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages' } });
  const toolUseIds = new Set();
  msgs.forEach((m, i) => {
    const want = i % 2 === 0 ? 'user' : 'assistant';
    if (m.role !== want) violation(P, 'alternation', `messages[${i}].role is ${m.role}, expected ${want}`);
    if (Array.isArray(m.content)) {
      for (const b of m.content) {
        if (b.type === 'tool_use') {
          if (!isObj(b.input)) violation(P, 'tool_use-input', 'tool_use.input must be an object');
          toolUseIds.add(b.id);
        }
        if (b.type === 'tool_result') {
          if (m.role !== 'user') violation(P, 'tool_result-role', 'tool_result must be in a user message');
          if (!toolUseIds.has(b.tool_use_id)) violation(P, 'tool_result-id', `tool_result for unknown tool_use_id ${b.tool_use_id}`);
          if ('is_error' in b && typeof b.is_error !== 'boolean') violation(P, 'is_error', 'is_error must be a boolean');
        }
      }
    } else if (typeof m.content !== 'string') violation(P, 'content', `messages[${i}].content must be a string or blocks`);
  });
  const lastMsg = msgs[msgs.length - 1];
  const results = Array.isArray(lastMsg.content) ? lastMsg.content.filter((b) => b.type === 'tool_result') : [];
  const last = results.length
    ? { kind: 'results', texts: results.map((r) => (Array.isArray(r.content) ? r.content.filter((c) => c.type === 'text').map((c) => c.text).join(' ') : String(r.content))) }
    : { kind: 'user', text: typeof lastMsg.content === 'string' ? lastMsg.content : lastMsg.content.filter((b) => b.type === 'text').map((b) => b.text).join(' ') };
  const d = decide(last, tools.map((t) => t.name));
  const content = d.answer
    ? [{ type: 'text', text: d.answer }]
    : d.calls.map((c, i) => ({ type: 'tool_use', id: `toolu_fake_${msgs.length}_${i}`, name: c.name, input: c.args ?? { city: 'Austin' } }));
  send(res, 200, { id: `msg_fake_${msgs.length}`, type: 'message', role: 'assistant', model: body.model, content, stop_reason: d.answer ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } });
}

// ---------- OpenAI Chat Completions (also OpenAI-compatible) ----------
function openaiChat(req, body, res) {
  const P = 'openai-chat';
  const auth = req.headers.authorization ?? '';
  if (!/^Bearer \S+/.test(auth)) violation(P, 'authorization', 'missing Authorization: Bearer');
  if (auth === 'Bearer bad-key') return send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
  if (typeof body.model !== 'string' || !body.model) violation(P, 'model', 'model must be a non-empty string');
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [i, t] of tools.entries()) {
    if (t.type !== 'function' || !isObj(t.function)) { violation(P, 'tool-shape', `tools[${i}] must be {type:"function", function:{…}}`); continue; }
    if (!NAME_RE.test(t.function.name ?? '')) violation(P, 'tool-name', `tools[${i}].function.name ${JSON.stringify(t.function.name)}`);
    checkSchema(P, `tools[${i}].function.parameters`, t.function.parameters);
  }
  const msgs = body.messages;
  if (!Array.isArray(msgs) || msgs.length === 0) { violation(P, 'messages', 'messages must be a non-empty array'); return send(res, 400, { error: { message: 'messages' } }); }
  const open = new Set();
  for (const [i, m] of msgs.entries()) {
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(m.role)) violation(P, 'role', `messages[${i}].role ${m.role}`);
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) {
        if (c.type !== 'function' || typeof c.function?.arguments !== 'string') violation(P, 'tool_calls', 'tool_calls[].function.arguments must be a string');
        open.add(c.id);
      }
    }
    if (m.role === 'tool') {
      if (!open.has(m.tool_call_id)) violation(P, 'tool_call_id', `tool message for unknown tool_call_id ${m.tool_call_id}`);
      open.delete(m.tool_call_id);
      if (typeof m.content !== 'string' && !Array.isArray(m.content)) violation(P, 'tool-content', 'tool message content must be a string or text parts');
    }
  }
  if (open.size) violation(P, 'unanswered-calls', `tool calls without a tool message: ${[...open].join(', ')}`);
  const tail = [];
  for (let i = msgs.length - 1; i >= 0 && msgs[i].role === 'tool'; i--) tail.unshift(msgs[i]);
  const last = tail.length ? { kind: 'results', texts: tail.map((m) => String(m.content)) } : { kind: 'user', text: String(msgs[msgs.length - 1].content ?? '') };
  const d = decide(last, tools.map((t) => t.function?.name));
  const message = d.answer
    ? { role: 'assistant', content: d.answer }
    : { role: 'assistant', content: null, tool_calls: d.calls.map((c, i) => ({ id: `call_fake_${msgs.length}_${i}`, type: 'function', function: { name: c.name, arguments: c.raw ?? JSON.stringify(c.args) } })) };
  send(res, 200, { id: `chatcmpl-fake-${msgs.length}`, object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: d.answer ? 'stop' : 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } });
}

// ---------- OpenAI Responses ----------
function openaiResponses(req, body, res) {
  const P = 'openai-responses';
  const auth = req.headers.authorization ?? '';
  if (!/^Bearer \S+/.test(auth)) violation(P, 'authorization', 'missing Authorization: Bearer');
  if (auth === 'Bearer bad-key') return send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [i, t] of tools.entries()) {
    if (t.type !== 'function' || 'function' in t) violation(P, 'tool-shape', `tools[${i}] must be flat {type:"function", name, parameters}`);
    if (!NAME_RE.test(t.name ?? '')) violation(P, 'tool-name', `tools[${i}].name ${JSON.stringify(t.name)}`);
    checkSchema(P, `tools[${i}].parameters`, t.parameters);
  }
  const input = body.input;
  if (!Array.isArray(input) && typeof input !== 'string') { violation(P, 'input', 'input must be a string or an array'); return send(res, 400, { error: { message: 'input' } }); }
  const items = Array.isArray(input) ? input : [{ role: 'user', content: input }];
  const open = new Set();
  for (const it of items) {
    if (it.type === 'function_call') {
      if (typeof it.arguments !== 'string') violation(P, 'arguments', 'function_call.arguments must be a string');
      open.add(it.call_id);
    }
    if (it.type === 'function_call_output') {
      if (!open.has(it.call_id)) violation(P, 'call_id', `function_call_output for unknown call_id ${it.call_id}`);
      open.delete(it.call_id);
    }
  }
  const tail = [];
  for (let i = items.length - 1; i >= 0 && items[i].type === 'function_call_output'; i--) tail.unshift(items[i]);
  const lastUser = items[items.length - 1];
  const last = tail.length
    ? { kind: 'results', texts: tail.map((o) => (typeof o.output === 'string' ? o.output : o.output.filter((p) => p.type === 'input_text').map((p) => p.text).join(' '))) }
    : { kind: 'user', text: typeof lastUser.content === 'string' ? lastUser.content : JSON.stringify(lastUser.content) };
  const d = decide(last, tools.map((t) => t.name));
  const output = d.answer
    ? [{ type: 'message', id: 'msg_fake', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: d.answer, annotations: [] }] }]
    : d.calls.map((c, i) => ({ type: 'function_call', id: `fc_fake_${i}`, call_id: `call_fake_${items.length}_${i}`, name: c.name, arguments: c.raw ?? JSON.stringify(c.args), status: 'completed' }));
  send(res, 200, { id: `resp_fake_${items.length}`, object: 'response', created_at: 0, status: 'completed', model: body.model, output, usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 } });
}

// ---------- Gemini ----------
function gemini(req, body, res, url) {
  const P = 'gemini';
  const key = req.headers['x-goog-api-key'] ?? url.searchParams.get('key');
  if (!key) violation(P, 'api-key', 'missing x-goog-api-key header (or key parameter)');
  if (key === 'bad-key') return send(res, 400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } });
  const decls = (Array.isArray(body.tools) ? body.tools : []).flatMap((t) => t.functionDeclarations ?? []);
  for (const [i, f] of decls.entries()) {
    if (!GEMINI_NAME_RE.test(f.name ?? '')) violation(P, 'function-name', `functionDeclarations[${i}].name ${JSON.stringify(f.name)}`);
    if (f.parameters) {
      checkSchema(P, `functionDeclarations[${i}].parameters`, f.parameters);
      const allowed = new Set(['anyOf', 'default', 'description', 'enum', 'example', 'format', 'items', 'maxItems', 'maxLength', 'maxProperties', 'maximum', 'minItems', 'minLength', 'minProperties', 'minimum', 'nullable', 'pattern', 'properties', 'propertyOrdering', 'required', 'title', 'type']);
      const walk = (s, path) => {
        if (!isObj(s)) return;
        for (const k of Object.keys(s)) if (!allowed.has(k)) violation(P, 'schema-keyword', `${path} uses ${k}, outside Gemini's Schema`);
        for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${path}.properties.${k}`);
        if (s.items) walk(s.items, `${path}.items`);
      };
      walk(f.parameters, `functionDeclarations[${i}].parameters`);
    }
  }
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) { violation(P, 'contents', 'contents must be a non-empty array'); return send(res, 400, { error: { message: 'contents' } }); }
  for (const [i, c] of contents.entries()) {
    if (!['user', 'model'].includes(c.role)) violation(P, 'role', `contents[${i}].role ${c.role}`);
    if (!Array.isArray(c.parts) || c.parts.length === 0) violation(P, 'parts', `contents[${i}].parts must be a non-empty array`);
    for (const p of c.parts ?? []) {
      if (p.functionCall && !isObj(p.functionCall.args ?? {})) violation(P, 'args', 'functionCall.args must be an object');
      if (p.functionResponse && !isObj(p.functionResponse.response)) violation(P, 'response', 'functionResponse.response must be an object');
    }
  }
  const lastC = contents[contents.length - 1];
  const responses = (lastC.parts ?? []).filter((p) => p.functionResponse);
  const last = responses.length
    ? { kind: 'results', texts: responses.map((p) => String(p.functionResponse.response.output ?? p.functionResponse.response.error)) }
    : { kind: 'user', text: (lastC.parts ?? []).map((p) => p.text ?? '').join(' ') };
  const d = decide(last, decls.map((f) => f.name));
  const parts = d.answer ? [{ text: d.answer }] : d.calls.map((c, i) => ({ functionCall: { id: `g_fake_${i}`, name: c.name, args: c.args ?? { city: 'Austin' } } }));
  send(res, 200, { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 }, modelVersion: 'fake' });
}

// ---------- Ollama ----------
function ollama(req, body, res) {
  const P = 'ollama';
  if (body.stream !== false) violation(P, 'stream', 'stream must be false (the page reads one JSON reply)');
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [i, t] of tools.entries()) {
    if (t.type !== 'function' || !isObj(t.function)) violation(P, 'tool-shape', `tools[${i}] must be {type:"function", function:{…}}`);
    checkSchema(P, `tools[${i}].function.parameters`, t.function?.parameters);
  }
  const msgs = body.messages ?? [];
  for (const [i, m] of msgs.entries()) {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) if (!isObj(c.function?.arguments)) violation(P, 'arguments', `messages[${i}] tool_calls[].function.arguments must be an object`);
    }
    if (m.role === 'tool' && typeof m.tool_name !== 'string') violation(P, 'tool_name', `messages[${i}] tool message needs tool_name`);
  }
  const tail = [];
  for (let i = msgs.length - 1; i >= 0 && msgs[i].role === 'tool'; i--) tail.unshift(msgs[i]);
  const last = tail.length ? { kind: 'results', texts: tail.map((m) => String(m.content)) } : { kind: 'user', text: String(msgs[msgs.length - 1]?.content ?? '') };
  const d = decide(last, tools.map((t) => t.function?.name));
  const message = d.answer
    ? { role: 'assistant', content: d.answer }
    : { role: 'assistant', content: '', tool_calls: d.calls.map((c) => ({ function: { name: c.name, arguments: c.args ?? { city: 'Austin' } } })) };
  send(res, 200, { model: body.model, created_at: '2026-11-30T00:00:00Z', message, done: true, done_reason: 'stop' });
}

function send(res, status, obj) {
  const text = JSON.stringify(obj);
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, GET, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-max-age': '600',
    });
    return res.end();
  }
  if (req.method === 'GET' && url.pathname === '/__violations') return send(res, 200, violations);
  if (req.method === 'GET' && url.pathname === '/__requests') return send(res, 200, requests);
  if (req.method === 'GET' && url.pathname === '/__throttled') return send(res, 200, { throttled });
  if (req.method === 'POST' && url.pathname === '/__reset') { violations.length = 0; requests.length = 0; return send(res, 200, {}); }
  let raw = '';
  req.on('data', (c) => { raw += c; });
  req.on('end', () => {
    let body;
    try { body = JSON.parse(raw); } catch { violation(url.pathname, 'json', 'the body is not JSON'); return send(res, 400, { error: { message: 'body is not JSON' } }); }
    if (!/^application\/json/.test(req.headers['content-type'] ?? '')) violation(url.pathname, 'content-type', `content-type is ${req.headers['content-type']}`);
    requests.push({ path: url.pathname, headers: { ...req.headers }, body });
    if (raw.includes('(busy)') && !throttledBodies.has(url.pathname + raw)) {
      throttledBodies.add(url.pathname + raw);
      throttled += 1;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      return res.end(JSON.stringify({ error: { type: 'rate_limit_error', message: 'rate limited (fake provider): try again' } }));
    }
    const p = url.pathname;
    if (p === '/anthropic/v1/messages') return anthropic(req, body, res);
    if (p === '/openai/v1/chat/completions' || p === '/ollama/v1/chat/completions') return openaiChat(req, body, res);
    if (p === '/openai/v1/responses') return openaiResponses(req, body, res);
    if (/^\/gemini\/v1beta\/models\/[^/:]+:generateContent$/.test(p)) return gemini(req, body, res, url);
    if (p === '/ollama/api/chat') return ollama(req, body, res);
    violation(p, 'route', `no such endpoint ${req.method} ${p}`);
    send(res, 404, { error: { message: `no such endpoint ${p}` } });
  });
});

const port = Number(process.argv[2] ?? 0);
server.listen(port, '127.0.0.1', () => {
  console.log(`fake provider on http://127.0.0.1:${server.address().port}`);
});
