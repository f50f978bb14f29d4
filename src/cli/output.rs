//! The handler of Ctrl-C and SIGTERM: the library registers what an interruption must clean up
//! ([`queens_sat::interrupt`]); this handler cleans it up and exits.

use std::sync::Once;

/// Exit status after an interruption (128 + SIGINT, as shells report it).
const INTERRUPTED: i32 = 130;

/// Installs (once) the handler of Ctrl-C and SIGTERM: it kills the external solvers running
/// ([`queens_sat::solve::kill_running`], which also removes their temporary folders), removes
/// the temporary output files ([`queens_sat::output::abandon_pending`]), and exits with status
/// 130. The library calls it when such work starts ([`queens_sat::interrupt::set_hook`]).
pub fn install_interrupt_handler() {
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| {
        // Without a handler (should installing fail) an interruption kills the process as
        // before and may leave the hidden temporary file: nothing worse.
        let _ = ctrlc::set_handler(|| {
            eprintln!("queens-sat: interrupted");
            queens_sat::solve::kill_running();
            queens_sat::output::abandon_pending(|target| {
                eprintln!("queens-sat: {} was not written", target.display())
            });
            std::process::exit(INTERRUPTED);
        });
    });
}
