// Small pieces every page uses: an error in words (announced), a status line.

export function Alert({ text, id }: { text: string | undefined; id?: string }) {
  if (!text) return null;
  return (
    <p id={id} class="error" role="alert">
      {text}
    </p>
  );
}

export function Status({ text, when = true }: { text: string; when?: boolean | undefined }) {
  return when ? <p role="status">{text}</p> : null;
}
