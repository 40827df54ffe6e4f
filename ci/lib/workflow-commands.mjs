// GitHub Actions workflow commands (`::error file=F,line=L,title=T::message`).
// Values are escaped as the runner expects, so a message with a newline or a colon cannot cut the command
// short or smuggle in a second one.

/** Escapes the message part of a workflow command. */
export function escapeData(value) {
  return String(value).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value (file, line, title) of a workflow command. */
export function escapeProperty(value) {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * @param {'error' | 'warning' | 'notice'} level
 * @param {string} message
 * @param {{ file?: string, line?: number, title?: string }} [properties]
 */
export function workflowCommand(level, message, properties = {}) {
  const parts = [];
  if (properties.file) parts.push(`file=${escapeProperty(properties.file)}`);
  if (properties.file && Number.isInteger(properties.line) && properties.line > 0) {
    parts.push(`line=${properties.line}`);
  }
  if (properties.title) parts.push(`title=${escapeProperty(properties.title)}`);
  return `::${level}${parts.length ? ` ${parts.join(',')}` : ''}::${escapeData(message)}`;
}
