//! The clingo C library behind [`super::ground`]: a control object with a ground program
//! observer that replaces the solver, so every ground statement lands in the builder and clasp
//! never sees the program.
//!
//! Invariant: every callback clingo invokes converts its arguments into the `lparse` statement
//! of the same aspif meaning and returns `true`, or records why it could not (a panic included —
//! no unwinding crosses the C boundary) and returns `false`, which stops clingo.
//!
//! Why `replace = true` and a call to `clingo_control_solve`: with `replace`, the observer takes
//! the place of clasp's program builder (clingo then runs in its gringo mode: no clasp
//! preprocessing, nothing solved), and the statements gringo emits only when a step is closed —
//! `#show` of predicates, `#minimize`, externals — are flushed by `prepare`, which only `solve`
//! calls. With the solver replaced that `solve` does no search: it closes the step and returns.

use super::GroundError;
use clingo_sys as sys;
use lparse::{
    Body, Edge, External, ExternalValue, Head, HeadKind, Heuristic, HeuristicModifier, Minimize,
    Output, ProgramBuilder, Rule, WLit,
};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::ptr;

/// clingo's default for how many diagnostics it prints before it stops.
const MESSAGE_LIMIT: c_uint = 20;

/// What the observer callbacks share: the builder they feed and why they stopped, if they did.
struct State<'a> {
    builder: &'a mut dyn ProgramBuilder,
    failure: Option<String>,
}

/// Owns a `clingo_control_t`, freed on every path out of [`ground`].
struct Control(*mut sys::clingo_control_t);

impl Drop for Control {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a successful clingo_control_new and is freed once.
        unsafe { sys::clingo_control_free(self.0) }
    }
}

pub(super) fn ground(
    files: &[PathBuf],
    stdin: Option<&[u8]>,
    argv: &[String],
    builder: &mut dyn ProgramBuilder,
) -> Result<(), GroundError> {
    let mut state = State {
        builder,
        failure: None,
    };
    // From here on `state` is only touched through `data`, by the callbacks and below.
    let data: *mut State = &mut state;
    let result = new_control(argv).and_then(|control| {
        let outcome = ground_with(&control, files, stdin, data as *mut c_void);
        drop(control); // no callback can run after this
        outcome
    });
    // SAFETY: the control that could call back is gone; nothing else holds `data`.
    let failure = unsafe { (*data).failure.take() };
    match failure {
        // The observer's own reason beats clingo's generic "observer failed".
        Some(why) => Err(GroundError::Internal(why)),
        None => result,
    }
}

/// A control object with clingo's command-line arguments `argv` (`-c`, `-W`).
fn new_control(argv: &[String]) -> Result<Control, GroundError> {
    let args = argv
        .iter()
        .map(|a| cstring(a))
        .collect::<Result<Vec<_>, _>>()?;
    let arg_ptrs: Vec<*const c_char> = args.iter().map(|a| a.as_ptr()).collect();
    let mut raw = ptr::null_mut();
    // SAFETY: the argument array outlives the call; the logger takes no data.
    check(unsafe {
        sys::clingo_control_new(
            arg_ptrs.as_ptr(),
            arg_ptrs.len(),
            Some(logger),
            ptr::null_mut(),
            MESSAGE_LIMIT,
            &mut raw,
        )
    })?;
    Ok(Control(raw))
}

/// Register the observer, load, ground `base`, close the step. `data` must point to the
/// `State` the callbacks feed and stay valid while `control` lives. The file `-` is `stdin`,
/// the text of standard input (read before), added as a block that diagnostics call `<stdin>`.
fn ground_with(
    control: &Control,
    files: &[PathBuf],
    stdin: Option<&[u8]>,
    data: *mut c_void,
) -> Result<(), GroundError> {
    let observer = observer();
    // SAFETY: clingo copies the observer table; the caller keeps `data` valid.
    check(unsafe { sys::clingo_control_register_observer(control.0, &observer, true, data) })?;

    for file in files {
        if let (Some(text), true) = (stdin, file.as_os_str() == "-") {
            let text = CString::new(text)
                .map_err(|_| GroundError::Input("standard input contains a NUL byte".into()))?;
            let base = cstring("base")?;
            // SAFETY: valid control, NUL-terminated name and program, no parameters.
            check(unsafe {
                sys::clingo_control_add(control.0, base.as_ptr(), ptr::null(), 0, text.as_ptr())
            })?;
            continue;
        }
        let path = path_cstring(file)?;
        // SAFETY: valid control and NUL-terminated path.
        check(unsafe { sys::clingo_control_load(control.0, path.as_ptr()) })?;
    }

    let base = cstring("base")?;
    let part = sys::clingo_part {
        name: base.as_ptr(),
        params: ptr::null(),
        size: 0,
    };
    // SAFETY: one part without parameters; no external-function callback.
    check(unsafe { sys::clingo_control_ground(control.0, &part, 1, None, ptr::null_mut()) })?;

    // Close the step (see the module doc: this flushes #show/#minimize; the solver is replaced).
    let mut handle = ptr::null_mut();
    // SAFETY: mode 0 = neither yield nor async; no assumptions, no event handler.
    check(unsafe {
        sys::clingo_control_solve(
            control.0,
            0,
            ptr::null(),
            0,
            None,
            ptr::null_mut(),
            &mut handle,
        )
    })?;
    let mut result: sys::clingo_solve_result_bitset_t = 0;
    // SAFETY: `handle` is the live handle solve returned; it is closed exactly once.
    let got = unsafe { sys::clingo_solve_handle_get(handle, &mut result) };
    let closed = unsafe { sys::clingo_solve_handle_close(handle) };
    check(got && closed)
}

fn check(ok: bool) -> Result<(), GroundError> {
    if ok {
        Ok(())
    } else {
        Err(last_error())
    }
}

/// Turn clingo's thread-local error code and message into a [`GroundError`].
fn last_error() -> GroundError {
    // SAFETY: both functions only read clingo's thread-local error state.
    let (code, message) = unsafe {
        let msg = sys::clingo_error_message();
        let text = if msg.is_null() {
            "unknown error".to_string()
        } else {
            CStr::from_ptr(msg).to_string_lossy().into_owned()
        };
        (sys::clingo_error_code() as u32, text)
    };
    match code {
        sys::clingo_error_e_clingo_error_runtime => GroundError::Input(message),
        sys::clingo_error_e_clingo_error_bad_alloc => GroundError::OutOfMemory(message),
        _ => GroundError::Internal(message),
    }
}

fn cstring(s: &str) -> Result<CString, GroundError> {
    CString::new(s).map_err(|_| GroundError::Input(format!("'{s}' contains a NUL byte")))
}

fn path_cstring(path: &std::path::Path) -> Result<CString, GroundError> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| GroundError::Input(format!("'{}' contains a NUL byte", path.display())))
}

/// clingo's diagnostics, printed as the clingo application prints them: the message (which
/// starts with `file:line:col-col:` and may span lines), then a newline; standard input's text,
/// which clingo calls `<block>`, is named `<stdin>`.
unsafe extern "C" fn logger(_code: c_int, message: *const c_char, _data: *mut c_void) {
    if !message.is_null() {
        // SAFETY: clingo passes a NUL-terminated message valid for the call.
        let text = unsafe { CStr::from_ptr(message) }.to_string_lossy();
        eprintln!("{}", text.replace("<block>:", "<stdin>:"));
    }
}

/// Run one observer callback body against the shared state; a returned error or a panic is
/// recorded and reported to clingo as a failed callback.
fn with_state(data: *mut c_void, f: impl FnOnce(&mut State) -> Result<(), String>) -> bool {
    let state = data as *mut State;
    // SAFETY: `data` is the `State` registered in `ground`, alive for the whole grounding, and
    // clingo calls the observer from the grounding thread only, so this borrow is unique.
    let outcome = catch_unwind(AssertUnwindSafe(|| f(unsafe { &mut *state })));
    let why = match outcome {
        Ok(Ok(())) => return true,
        Ok(Err(why)) => why,
        Err(panic) => {
            let text = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_string());
            format!("ground program observer panicked: {text}")
        }
    };
    // SAFETY: as above; the closure has returned, so no other borrow is live.
    unsafe { (*state).failure.get_or_insert(why) };
    let msg = CString::new("ground program observer failed").expect("no NUL");
    // SAFETY: clingo copies the message.
    unsafe {
        sys::clingo_set_error(
            sys::clingo_error_e_clingo_error_unknown as c_int,
            msg.as_ptr(),
        )
    };
    false
}

/// A `(pointer, length)` pair from clingo as a slice (clingo may pass NULL for length 0).
unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if len == 0 || ptr.is_null() {
        &[]
    } else {
        // SAFETY: clingo guarantees `len` valid elements for the duration of the callback.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

fn wlits(lits: &[sys::clingo_weighted_literal_t]) -> Vec<WLit> {
    lits.iter()
        .map(|w| WLit {
            lit: w.literal,
            weight: i64::from(w.weight),
        })
        .collect()
}

fn head(choice: bool, atoms: &[sys::clingo_atom_t]) -> Head {
    Head {
        kind: if choice {
            HeadKind::Choice
        } else {
            HeadKind::Disjunctive
        },
        atoms: atoms.to_vec(),
    }
}

/// The text clingo prints for a symbol (`p(1,"a")`).
fn symbol_string(symbol: sys::clingo_symbol_t) -> Result<String, String> {
    let mut size = 0usize;
    // SAFETY: plain out-parameter calls; the buffer has the size clingo asked for.
    unsafe {
        if !sys::clingo_symbol_to_string_size(symbol, &mut size) {
            return Err("clingo_symbol_to_string_size failed".into());
        }
        let mut buf = vec![0u8; size];
        if !sys::clingo_symbol_to_string(symbol, buf.as_mut_ptr() as *mut c_char, size) {
            return Err("clingo_symbol_to_string failed".into());
        }
        let text = CStr::from_bytes_until_nul(&buf).map_err(|e| e.to_string())?;
        Ok(text.to_string_lossy().into_owned())
    }
}

fn external_value(t: sys::clingo_external_type_t) -> Result<ExternalValue, String> {
    Ok(match t as u32 {
        sys::clingo_external_type_e_clingo_external_type_free => ExternalValue::Free,
        sys::clingo_external_type_e_clingo_external_type_true => ExternalValue::True,
        sys::clingo_external_type_e_clingo_external_type_false => ExternalValue::False,
        sys::clingo_external_type_e_clingo_external_type_release => ExternalValue::Release,
        other => return Err(format!("unknown external type {other}")),
    })
}

fn heuristic_modifier(t: sys::clingo_heuristic_type_t) -> Result<HeuristicModifier, String> {
    Ok(match t as u32 {
        sys::clingo_heuristic_type_e_clingo_heuristic_type_level => HeuristicModifier::Level,
        sys::clingo_heuristic_type_e_clingo_heuristic_type_sign => HeuristicModifier::Sign,
        sys::clingo_heuristic_type_e_clingo_heuristic_type_factor => HeuristicModifier::Factor,
        sys::clingo_heuristic_type_e_clingo_heuristic_type_init => HeuristicModifier::Init,
        sys::clingo_heuristic_type_e_clingo_heuristic_type_true => HeuristicModifier::True,
        sys::clingo_heuristic_type_e_clingo_heuristic_type_false => HeuristicModifier::False,
        other => return Err(format!("unknown heuristic type {other}")),
    })
}

fn observer() -> sys::clingo_ground_program_observer_t {
    sys::clingo_ground_program_observer_t {
        init_program: None,
        begin_step: None,
        end_step: None,
        rule: Some(on_rule),
        weight_rule: Some(on_weight_rule),
        minimize: Some(on_minimize),
        project: Some(on_project),
        output_atom: Some(on_output_atom),
        output_term: Some(on_output_term),
        external: Some(on_external),
        assume: Some(on_assume),
        heuristic: Some(on_heuristic),
        acyc_edge: Some(on_acyc_edge),
        theory_term_number: Some(on_theory_term_number),
        theory_term_string: Some(on_theory_term_string),
        theory_term_compound: Some(on_theory_term_compound),
        theory_element: Some(on_theory_element),
        theory_atom: Some(on_theory_atom),
        theory_atom_with_guard: Some(on_theory_atom_with_guard),
    }
}

// The callbacks. Each is `unsafe extern "C"` because clingo calls it with raw pointers whose
// validity (length-many elements, alive for the call) is clingo's guarantee.

unsafe extern "C" fn on_rule(
    choice: bool,
    h: *const sys::clingo_atom_t,
    hn: usize,
    b: *const sys::clingo_literal_t,
    bn: usize,
    data: *mut c_void,
) -> bool {
    let (h, b) = unsafe { (slice(h, hn), slice(b, bn)) };
    with_state(data, |s| {
        s.builder.rule(Rule {
            head: head(choice, h),
            body: Body::Normal(b.to_vec()),
        });
        Ok(())
    })
}

unsafe extern "C" fn on_weight_rule(
    choice: bool,
    h: *const sys::clingo_atom_t,
    hn: usize,
    lower: sys::clingo_weight_t,
    b: *const sys::clingo_weighted_literal_t,
    bn: usize,
    data: *mut c_void,
) -> bool {
    let (h, b) = unsafe { (slice(h, hn), slice(b, bn)) };
    with_state(data, |s| {
        s.builder.rule(Rule {
            head: head(choice, h),
            body: Body::Sum {
                lower: i64::from(lower),
                lits: wlits(b),
            },
        });
        Ok(())
    })
}

unsafe extern "C" fn on_minimize(
    priority: sys::clingo_weight_t,
    l: *const sys::clingo_weighted_literal_t,
    n: usize,
    data: *mut c_void,
) -> bool {
    let l = unsafe { slice(l, n) };
    with_state(data, |s| {
        s.builder.minimize(Minimize {
            priority,
            lits: wlits(l),
        });
        Ok(())
    })
}

unsafe extern "C" fn on_project(a: *const sys::clingo_atom_t, n: usize, data: *mut c_void) -> bool {
    let a = unsafe { slice(a, n) };
    with_state(data, |s| {
        s.builder.project(a.to_vec());
        Ok(())
    })
}

unsafe extern "C" fn on_output_atom(
    symbol: sys::clingo_symbol_t,
    atom: sys::clingo_atom_t,
    data: *mut c_void,
) -> bool {
    with_state(data, |s| {
        // Atom 0 marks a fact: shown unconditionally, as gringo's `4 … 0` line.
        let condition = if atom == 0 {
            Vec::new()
        } else {
            vec![i32::try_from(atom).map_err(|_| format!("atom {atom} out of range"))?]
        };
        s.builder.output(Output {
            name: symbol_string(symbol)?,
            condition,
        });
        Ok(())
    })
}

unsafe extern "C" fn on_output_term(
    symbol: sys::clingo_symbol_t,
    c: *const sys::clingo_literal_t,
    n: usize,
    data: *mut c_void,
) -> bool {
    let c = unsafe { slice(c, n) };
    with_state(data, |s| {
        s.builder.output(Output {
            name: symbol_string(symbol)?,
            condition: c.to_vec(),
        });
        Ok(())
    })
}

unsafe extern "C" fn on_external(
    atom: sys::clingo_atom_t,
    t: sys::clingo_external_type_t,
    data: *mut c_void,
) -> bool {
    with_state(data, |s| {
        s.builder.external(External {
            atom,
            value: external_value(t)?,
        });
        Ok(())
    })
}

unsafe extern "C" fn on_assume(
    l: *const sys::clingo_literal_t,
    n: usize,
    data: *mut c_void,
) -> bool {
    let l = unsafe { slice(l, n) };
    with_state(data, |s| {
        s.builder.assume(l.to_vec());
        Ok(())
    })
}

unsafe extern "C" fn on_heuristic(
    atom: sys::clingo_atom_t,
    t: sys::clingo_heuristic_type_t,
    bias: c_int,
    priority: c_uint,
    c: *const sys::clingo_literal_t,
    n: usize,
    data: *mut c_void,
) -> bool {
    let c = unsafe { slice(c, n) };
    with_state(data, |s| {
        s.builder.heuristic(Heuristic {
            modifier: heuristic_modifier(t)?,
            atom,
            bias,
            priority,
            condition: c.to_vec(),
        });
        Ok(())
    })
}

unsafe extern "C" fn on_acyc_edge(
    u: c_int,
    v: c_int,
    c: *const sys::clingo_literal_t,
    n: usize,
    data: *mut c_void,
) -> bool {
    let c = unsafe { slice(c, n) };
    with_state(data, |s| {
        s.builder.edge(Edge {
            u,
            v,
            condition: c.to_vec(),
        });
        Ok(())
    })
}

// Theory statements are only counted (each is one aspif `9` line): the solver rejects any.

fn theory(data: *mut c_void) -> bool {
    with_state(data, |s| {
        s.builder.theory();
        Ok(())
    })
}

unsafe extern "C" fn on_theory_term_number(
    _: sys::clingo_id_t,
    _: c_int,
    data: *mut c_void,
) -> bool {
    theory(data)
}

unsafe extern "C" fn on_theory_term_string(
    _: sys::clingo_id_t,
    _: *const c_char,
    data: *mut c_void,
) -> bool {
    theory(data)
}

unsafe extern "C" fn on_theory_term_compound(
    _: sys::clingo_id_t,
    _: c_int,
    _: *const sys::clingo_id_t,
    _: usize,
    data: *mut c_void,
) -> bool {
    theory(data)
}

unsafe extern "C" fn on_theory_element(
    _: sys::clingo_id_t,
    _: *const sys::clingo_id_t,
    _: usize,
    _: *const sys::clingo_literal_t,
    _: usize,
    data: *mut c_void,
) -> bool {
    theory(data)
}

unsafe extern "C" fn on_theory_atom(
    _: sys::clingo_id_t,
    _: sys::clingo_id_t,
    _: *const sys::clingo_id_t,
    _: usize,
    data: *mut c_void,
) -> bool {
    theory(data)
}

unsafe extern "C" fn on_theory_atom_with_guard(
    _: sys::clingo_id_t,
    _: sys::clingo_id_t,
    _: *const sys::clingo_id_t,
    _: usize,
    _: sys::clingo_id_t,
    _: sys::clingo_id_t,
    data: *mut c_void,
) -> bool {
    theory(data)
}
