// The console's interactive shell (Owners only; the page does not render it
// for anyone else): a WebSocket to `/console/shell` carrying the key in a
// subprotocol, an output pane and an input line with its history on the
// arrow keys. A browser is not told why an upgrade was refused, so after a
// failed opening the page asks the same path over plain HTTP: the server
// answers the refusal (403, 404, 401) in words, or 426 when the caller may
// open a shell and the agent has no running pod to open it in.
import { useEffect, useRef, useState } from 'preact/hooks';
import { agentPath, get, loadSession } from '../api.ts';
import { Alert } from '../components.tsx';
import { ApiError, describeError } from '../errors.ts';
import {
  appendOutput,
  browse,
  closeWords,
  emptyHistory,
  parseServerFrame,
  remember,
  shellProtocols,
  shellUrl,
  stdinFrame,
  type History,
} from '../shell-model.ts';

type Phase = 'closed' | 'opening' | 'open';

async function whyRefused(agentId: string): Promise<string> {
  try {
    await get(agentPath(agentId, '/console/shell'));
    return 'The shell could not be opened.';
  } catch (err) {
    if (err instanceof ApiError && err.status === 426)
      return 'The shell could not be opened: the agent has no running pod right now. Start it and try again.';
    return `The shell could not be opened. ${describeError(err)}`;
  }
}

function useShell(agentId: string) {
  const [phase, setPhase] = useState<Phase>('closed');
  const [output, setOutput] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const socket = useRef<WebSocket | undefined>(undefined);
  useEffect(() => () => socket.current?.close(1000), []);
  const open = () => {
    let opened = false;
    let exitCode: number | undefined;
    const ws = new WebSocket(shellUrl(location.origin, agentId), shellProtocols(loadSession()?.key ?? ''));
    socket.current = ws;
    setPhase('opening');
    setMessage(undefined);
    ws.onopen = () => {
      opened = true;
      setPhase('open');
    };
    ws.onmessage = (e: MessageEvent<string>) => {
      const f = parseServerFrame(String(e.data));
      if (f?.type === 'exit') exitCode = f.code;
      else if (f) setOutput((o) => appendOutput(o, f.data));
    };
    ws.onclose = (e) => {
      if (socket.current === ws) socket.current = undefined;
      setPhase('closed');
      if (opened) setMessage({ text: closeWords(e.code, e.reason, exitCode), error: false });
      else void whyRefused(agentId).then((text) => setMessage({ text, error: true }));
    };
  };
  const send = (line: string) => {
    socket.current?.send(stdinFrame(line));
    setOutput((o) => appendOutput(o, `$ ${line}\n`));
  };
  const close = () => socket.current?.close(1000);
  return { phase, output, message, open, send, close };
}

function CommandLine({ onSend, disabled }: { onSend: (line: string) => void; disabled: boolean }) {
  const [line, setLine] = useState('');
  const [history, setHistory] = useState<History>(emptyHistory);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!disabled) input.current?.focus();
  }, [disabled]);
  return (
    <form
      class="shell-input"
      onSubmit={(e) => {
        e.preventDefault();
        onSend(line);
        setHistory((h) => remember(h, line));
        setLine('');
      }}
    >
      <label for="shell-command">Command</label>
      <input
        id="shell-command"
        ref={input}
        value={line}
        disabled={disabled}
        autocomplete="off"
        spellcheck={false}
        aria-describedby="shell-hint"
        onInput={(e) => setLine(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
          e.preventDefault();
          const r = browse(history, e.key === 'ArrowUp' ? -1 : 1, line);
          setHistory(r.history);
          setLine(r.line);
        }}
      />
      <button type="submit" disabled={disabled}>
        Run
      </button>
      <span id="shell-hint" class="muted">
        Up and Down go through earlier commands.
      </span>
    </form>
  );
}

export function ShellPanel({ agentId }: { agentId: string }) {
  const shell = useShell(agentId);
  const pane = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (pane.current) pane.current.scrollTop = pane.current.scrollHeight;
  }, [shell.output]);
  return (
    <section aria-labelledby="shell-title" class="card console-shell" data-testid="shell">
      <div class="card-head">
        <h2 id="shell-title">Shell</h2>
        {shell.phase === 'closed' ? (
          <button type="button" onClick={shell.open}>
            Open shell
          </button>
        ) : (
          <button type="button" class="secondary" onClick={shell.close}>
            Close shell
          </button>
        )}
      </div>
      <p class="muted">
        A shell in the agent’s own container. Only Owners may open it; every session and its commands are
        recorded in the passport.
      </p>
      {shell.phase === 'opening' ? <p role="status">Opening the shell…</p> : null}
      {shell.message?.error ? <Alert text={shell.message.text} /> : null}
      {shell.message && !shell.message.error ? <p role="status">{shell.message.text}</p> : null}
      <pre
        class="shell-output"
        ref={pane}
        tabIndex={0}
        role="log"
        aria-label="Shell output"
        data-testid="shell-output"
      >
        {shell.output}
      </pre>
      <CommandLine onSend={shell.send} disabled={shell.phase !== 'open'} />
    </section>
  );
}
