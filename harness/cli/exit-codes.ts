/** Exit codes shared by every command, so that validate and run agree on them. */
export const EXIT_OK = 0;
/** A MUST check failed. */
export const EXIT_FAILED = 1;
/** Usage error, unreadable input, or a shim that could not be started. */
export const EXIT_USAGE = 2;
