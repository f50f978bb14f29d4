//! Interruptions (Ctrl-C, SIGTERM). The library installs no signal handler; what an
//! interrupted run leaves behind it registers for cleanup instead: the solver processes and
//! their folders ([`crate::solve::kill_running`]) and the temporary output files
//! (`output::abandon_pending`). A program that wants them cleaned up installs its own
//! handler, which calls both and exits.
//!
//! Such a program may install its handler only when there is something to clean up: it
//! registers the installing function with [`set_hook`], and the library calls it (through
//! [`cleanup_needed`]) before it starts a solver or stages an output file.

use std::sync::OnceLock;

/// The function that [`cleanup_needed`] calls.
static HOOK: OnceLock<fn()> = OnceLock::new();

/// Registers `hook` (once: later calls change nothing) to be called before the library starts
/// work that an interruption must clean up. It may be called many times: it should do its work
/// once (see [`std::sync::Once`]).
pub fn set_hook(hook: fn()) {
    let _ = HOOK.set(hook);
}

/// Calls the hook registered with [`set_hook`], if any: work that an interruption must clean
/// up is about to start.
pub fn cleanup_needed() {
    if let Some(hook) = HOOK.get() {
        hook();
    }
}
