//! `starkbatch._native`: the Python binding of the starkbatch crate (docs/python.md).
//!
//! A thin layer: every function converts its Python arguments to [`Felt`]s, calls the crate
//! and converts back. Field elements cross the boundary as Python `int`s in `[0, p)`; anything
//! else raises `ValueError` naming the argument (and the index, in a list). Batch functions
//! release the GIL while they hash.
//!
//! Two families of names:
//! - poseidon-py's (`poseidon_hash`, `poseidon_hash_single`, `poseidon_hash_many`,
//!   `hades_permutation`, `poseidon_perm`) and crypto-cpp-py's (`cpp_hash`, `cpp_sign`,
//!   `cpp_verify`, `cpp_get_public_key`, `cpp_generate_k_rfc6979`), with their argument order
//!   and results, so either package can be swapped for this one;
//! - starkbatch's own (`pedersen_hash`, `sign`, `verify`, `get_public_key`, the batch
//!   functions, Blake2s and the class hashes).

use num_bigint::BigUint;
use numpy::{PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use starkbatch::{Backend, Felt, Scalar};

/// The field element `obj` (a Python int in `[0, p)`); `what` names it in the error.
fn felt(obj: &Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<Felt> {
    let n: BigUint = obj.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "{}: expected a non-negative int below p, got {}",
            what(),
            obj.repr().map_or_else(|_| "?".into(), |r| r.to_string())
        ))
    })?;
    felt_of(&n, what)
}

fn felt_of(n: &BigUint, what: &dyn Fn() -> String) -> PyResult<Felt> {
    let bytes = n.to_bytes_be();
    if bytes.len() > 32 {
        return Err(PyValueError::new_err(format!(
            "{}: an int of {} bits is not below p",
            what(),
            n.bits()
        )));
    }
    let mut be = [0u8; 32];
    be[32 - bytes.len()..].copy_from_slice(&bytes);
    Felt::from_bytes_be(&be).map_err(|_| PyValueError::new_err(format!("{}: not below p", what())))
}

fn arg(name: &'static str) -> impl Fn() -> String {
    move || name.to_string()
}

/// Every element of the Python sequence `seq` as a felt.
fn felts(seq: &Bound<'_, PyAny>, name: &'static str) -> PyResult<Vec<Felt>> {
    let mut out = Vec::with_capacity(seq.len().unwrap_or(0));
    for (i, item) in seq.try_iter()?.enumerate() {
        out.push(felt(&item?, &|| format!("{name}[{i}]"))?);
    }
    Ok(out)
}

fn int(f: &Felt) -> BigUint {
    BigUint::from_bytes_be(&f.to_bytes_be())
}

fn ints(fs: &[Felt]) -> Vec<BigUint> {
    fs.iter().map(int).collect()
}

// ---- poseidon-py ----------------------------------------------------------------------------

/// `Poseidon(x, y)`: the permutation of `[x, y, 2]`, first element (poseidon-py's
/// `poseidon_hash`).
#[pyfunction]
fn poseidon_hash(x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let (x, y) = (felt(x, &arg("x"))?, felt(y, &arg("y"))?);
    Ok(int(&starkbatch::poseidon_hash(x, y)))
}

/// `Poseidon(x)`: the permutation of `[x, 0, 1]`, first element.
#[pyfunction]
fn poseidon_hash_single(x: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    Ok(int(&starkbatch::poseidon_hash_single(felt(x, &arg("x"))?)))
}

/// The Poseidon sponge over `array` (rate 2, padded with 1 then 0s).
#[pyfunction]
fn poseidon_hash_many(py: Python<'_>, array: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let v = felts(array, "array")?;
    let h = py.detach(|| starkbatch::poseidon_hash_many(&v));
    Ok(int(&h))
}

/// The Hades permutation of three values (poseidon-py's `hades_permutation(values)`).
#[pyfunction]
fn hades_permutation(values: &Bound<'_, PyAny>) -> PyResult<Vec<BigUint>> {
    let v = felts(values, "values")?;
    let mut state: [Felt; 3] = v.try_into().map_err(|v: Vec<Felt>| {
        PyValueError::new_err(format!("values: expected 3 elements, got {}", v.len()))
    })?;
    starkbatch::poseidon_permute_comp(&mut state);
    Ok(ints(&state))
}

/// The Hades permutation of `[x, y, z]` (poseidon-py's `poseidon_perm`).
#[pyfunction]
fn poseidon_perm(
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    z: &Bound<'_, PyAny>,
) -> PyResult<Vec<BigUint>> {
    let mut state = [
        felt(x, &arg("x"))?,
        felt(y, &arg("y"))?,
        felt(z, &arg("z"))?,
    ];
    starkbatch::poseidon_permute_comp(&mut state);
    Ok(ints(&state))
}

// ---- Pedersen and ECDSA ---------------------------------------------------------------------

/// The Starknet Pedersen hash of two elements.
#[pyfunction]
fn pedersen_hash(left: &Bound<'_, PyAny>, right: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let (a, b) = (felt(left, &arg("left"))?, felt(right, &arg("right"))?);
    Ok(int(&starkbatch::pedersen_hash(&a, &b)))
}

/// crypto-cpp-py's `cpp_hash(left, right)`: the Pedersen hash.
#[pyfunction]
fn cpp_hash(left: &Bound<'_, PyAny>, right: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    pedersen_hash(left, right)
}

/// cairo-lang's `compute_hash_on_elements`: Pedersen over the elements, then over their count.
#[pyfunction]
fn compute_hash_on_elements(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let v = felts(data, "data")?;
    Ok(int(&py.detach(|| starkbatch::pedersen_hash_array(&v))))
}

/// The public key (x coordinate of `private_key · G`).
#[pyfunction]
fn get_public_key(private_key: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let k = felt(private_key, &arg("private_key"))?;
    if k.is_zero() {
        return Err(PyValueError::new_err("private_key: must not be 0"));
    }
    Ok(int(&starkbatch::get_public_key(&k)))
}

/// crypto-cpp-py's `cpp_get_public_key(private_key)`.
#[pyfunction]
fn cpp_get_public_key(private_key: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    get_public_key(private_key)
}

/// The RFC 6979 nonce as cairo-lang's `generate_k_rfc6979` (crypto-cpp-py's
/// `cpp_generate_k_rfc6979(msg_hash, priv_key, seed=None)`).
#[pyfunction]
#[pyo3(signature = (msg_hash, priv_key, seed=None))]
fn cpp_generate_k_rfc6979(
    msg_hash: &Bound<'_, PyAny>,
    priv_key: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<BigUint> {
    let m = felt(msg_hash, &arg("msg_hash"))?;
    let d = felt(priv_key, &arg("priv_key"))?;
    let s = seed.map(|s| felt(s, &arg("seed"))).transpose()?;
    Ok(int(&starkbatch::rfc6979_generate_k(&m, &d, s.as_ref())))
}

/// An ECDSA signature `(r, s)` of `msg_hash` with the RFC 6979 nonce, `seed` its extra
/// entropy (`None`: none), equal to crypto-cpp-py's `cpp_sign(msg_hash, priv_key, seed=32)`.
#[pyfunction]
#[pyo3(signature = (msg_hash, priv_key, seed=Some(BigUint::from(32u32))))]
fn sign(
    msg_hash: &Bound<'_, PyAny>,
    priv_key: &Bound<'_, PyAny>,
    seed: Option<BigUint>,
) -> PyResult<(BigUint, BigUint)> {
    let m = felt(msg_hash, &arg("msg_hash"))?;
    let d = felt(priv_key, &arg("priv_key"))?;
    let s = match seed {
        Some(s) => Some(felt_of(&s, &arg("seed"))?),
        None => None,
    };
    let k = starkbatch::rfc6979_generate_k(&m, &d, s.as_ref());
    let sig =
        starkbatch::sign(&d, &m, &k).map_err(|e| PyValueError::new_err(format!("sign: {e}")))?;
    Ok((int(&sig.r), int(&sig.s)))
}

/// crypto-cpp-py's `cpp_sign(msg_hash, priv_key, seed=32)`.
#[pyfunction]
#[pyo3(signature = (msg_hash, priv_key, seed=Some(BigUint::from(32u32))))]
fn cpp_sign(
    msg_hash: &Bound<'_, PyAny>,
    priv_key: &Bound<'_, PyAny>,
    seed: Option<BigUint>,
) -> PyResult<(BigUint, BigUint)> {
    sign(msg_hash, priv_key, seed)
}

/// Whether `(r, s)` is a valid signature of `msg_hash` under `public_key`. Out-of-range `r`
/// or `s` (0 or not below 2^251) is `False`, as crypto-cpp-py answers.
#[pyfunction]
fn verify(
    msg_hash: &Bound<'_, PyAny>,
    r: &Bound<'_, PyAny>,
    s: &Bound<'_, PyAny>,
    public_key: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let s = felt(s, &arg("s"))?;
    verify_with(msg_hash, r, public_key, "public_key", |_| Some(s))
}

/// `verify` of `msg_hash` and `r` under the key `key`, with `s` from `s_of` (`None`: invalid).
fn verify_with(
    msg_hash: &Bound<'_, PyAny>,
    r: &Bound<'_, PyAny>,
    key: &Bound<'_, PyAny>,
    key_name: &'static str,
    s_of: impl FnOnce(()) -> Option<Felt>,
) -> PyResult<bool> {
    let m = felt(msg_hash, &arg("msg_hash"))?;
    let r = felt(r, &arg("r"))?;
    let q = felt(key, &arg(key_name))?;
    Ok(s_of(()).is_some_and(|s| starkbatch::verify(&q, &m, &r, &s).unwrap_or(false)))
}

/// crypto-cpp-py's `cpp_verify(msg_hash, r, w, stark_key)`, where `w` is the inverse of `s`
/// modulo the curve order.
#[pyfunction]
fn cpp_verify(
    msg_hash: &Bound<'_, PyAny>,
    r: &Bound<'_, PyAny>,
    w: &Bound<'_, PyAny>,
    stark_key: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let w = felt(w, &arg("w"))?;
    verify_with(msg_hash, r, stark_key, "stark_key", |_| {
        Scalar::from_felt(&w)
            .filter(|w| !w.is_zero())
            .map(|w| w.inverse_vartime().to_felt())
    })
}

// ---- Blake2s and class hashes ---------------------------------------------------------------

/// Blake2s-256 over the felts' u32-word encoding, reduced mod p (starknet-types-core's
/// `Blake2Felt252::encode_felt252_data_and_calc_blake_hash`, the CASM v2 hash).
#[pyfunction]
fn blake2s_hash_many(py: Python<'_>, values: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let v = felts(values, "values")?;
    Ok(int(&py.detach(|| starkbatch::blake2s_hash_many(&v))))
}

/// Whether `version` names the v2 compiled class hash (`"v2"`) or v1 (`"v1"`).
fn is_v2(version: &str) -> PyResult<bool> {
    match version {
        "v1" => Ok(false),
        "v2" => Ok(true),
        v => Err(PyValueError::new_err(format!(
            "version: expected \"v1\" or \"v2\", got {v:?}"
        ))),
    }
}

/// The class hash of a contract class JSON document: a Sierra class, or a Cairo 0 (legacy)
/// class; for a CASM file its compiled class hash (v1 or, with `version="v2"`, v2).
#[pyfunction]
#[pyo3(signature = (json, version="v2"))]
fn class_hash(py: Python<'_>, json: &str, version: &str) -> PyResult<BigUint> {
    use starkbatch::class_hash::{class_hashes, ClassHashes};
    let v2 = is_v2(version)?;
    let r = py.detach(|| class_hashes(json));
    match r.map_err(|e| PyValueError::new_err(e.to_string()))? {
        ClassHashes::Sierra(h) | ClassHashes::Legacy(h) => Ok(int(&h)),
        ClassHashes::Compiled(c) => Ok(int(if v2 { &c.v2 } else { &c.v1 })),
    }
}

/// The compiled class hash of a CASM JSON document: v2 (Blake2s, Starknet 0.14.1 and later)
/// by default, or v1 (Poseidon).
#[pyfunction]
#[pyo3(signature = (json, version="v2"))]
fn compiled_class_hash(py: Python<'_>, json: &str, version: &str) -> PyResult<BigUint> {
    use starkbatch::class_hash;
    let f = if is_v2(version)? {
        class_hash::compiled_class_hash_v2
    } else {
        class_hash::compiled_class_hash
    };
    let r = py.detach(|| f(json));
    Ok(int(&r.map_err(|e| PyValueError::new_err(e.to_string()))?))
}

// ---- Batches --------------------------------------------------------------------------------

/// How a batch's felts arrived, and so how its results are returned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// A sequence of Python ints: a list of ints.
    Ints,
    /// `bytes` of 32-byte big-endian felts: `bytes`.
    Bytes,
    /// A NumPy `(n, 32)` `uint8` array, each row a big-endian felt: the same.
    Be32,
    /// A NumPy `(n, 4)` `uint64` array, each row a felt's little-endian limbs: the same.
    Limbs,
}

fn not_below_p(name: &str, i: usize) -> PyErr {
    PyValueError::new_err(format!("{name}[{i}]: not below p"))
}

fn from_be_rows<'a>(
    rows: impl Iterator<Item = &'a [u8]>,
    name: &str,
    out: &mut Vec<Felt>,
) -> PyResult<()> {
    for (i, row) in rows.enumerate() {
        let be: &[u8; 32] = row.try_into().map_err(|_| not_below_p(name, i))?;
        out.push(Felt::from_bytes_be(be).map_err(|_| not_below_p(name, i))?);
    }
    Ok(())
}

/// The felts of a batch argument: a NumPy `(n, 32)` `uint8` or `(n, 4)` `uint64` array,
/// `bytes` (32 big-endian bytes per felt) or a sequence of ints.
fn felt_input(obj: &Bound<'_, PyAny>, name: &'static str) -> PyResult<(Vec<Felt>, Form)> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        let b = b.as_bytes();
        if b.len() % 32 != 0 {
            return Err(PyValueError::new_err(format!(
                "{name}: {} bytes is not a whole number of 32-byte felts",
                b.len()
            )));
        }
        let mut out = Vec::with_capacity(b.len() / 32);
        from_be_rows(b.chunks_exact(32), name, &mut out)?;
        return Ok((out, Form::Bytes));
    }
    if let Ok(a) = obj.extract::<PyReadonlyArray2<'_, u8>>() {
        let v = a.as_array();
        if v.ncols() == 32 {
            let mut out = Vec::with_capacity(v.nrows());
            match a.as_slice() {
                Ok(flat) => from_be_rows(flat.chunks_exact(32), name, &mut out)?,
                Err(_) => {
                    let rows: Vec<Vec<u8>> = v.rows().into_iter().map(|r| r.to_vec()).collect();
                    from_be_rows(rows.iter().map(Vec::as_slice), name, &mut out)?
                }
            }
            return Ok((out, Form::Be32));
        }
    }
    if let Ok(a) = obj.extract::<PyReadonlyArray2<'_, u64>>() {
        let v = a.as_array();
        if v.ncols() == 4 {
            let mut out = Vec::with_capacity(v.nrows());
            for (i, row) in v.rows().into_iter().enumerate() {
                let limbs = [row[0], row[1], row[2], row[3]];
                out.push(Felt::from_raw_limbs(limbs).ok_or_else(|| not_below_p(name, i))?);
            }
            return Ok((out, Form::Limbs));
        }
    }
    if let Ok(a) = obj.cast::<PyUntypedArray>() {
        return Err(PyValueError::new_err(format!(
            "{name}: expected an (n, 32) uint8 or (n, 4) uint64 array, got shape {:?} dtype {}",
            a.shape(),
            a.dtype()
        )));
    }
    Ok((felts(obj, name)?, Form::Ints))
}

/// The results in the form the inputs came in.
fn felt_output(py: Python<'_>, out: &[Felt], form: Form) -> PyResult<Py<PyAny>> {
    Ok(match form {
        Form::Ints => ints(out).into_pyobject(py)?.into_any().unbind(),
        Form::Bytes => {
            let flat: Vec<u8> = out.iter().flat_map(|f| f.to_bytes_be()).collect();
            PyBytes::new(py, &flat).into_any().unbind()
        }
        Form::Be32 => {
            let flat: Vec<u8> = out.iter().flat_map(|f| f.to_bytes_be()).collect();
            numpy::PyArray1::from_vec(py, flat)
                .reshape([out.len(), 32])?
                .into_any()
                .unbind()
        }
        Form::Limbs => {
            let flat: Vec<u64> = out.iter().flat_map(|f| f.to_raw_limbs()).collect();
            let a: Bound<'_, PyArray2<u64>> =
                numpy::PyArray1::from_vec(py, flat).reshape([out.len(), 4])?;
            a.into_any().unbind()
        }
    })
}

/// One felt of a column: an int, a string (`0x` hex or decimal) or big-endian bytes (at most
/// 32); `what` names it in the error.
fn felt_item(item: &Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<Felt> {
    if let Ok(v) = item.extract::<u64>() {
        return Ok(Felt::from(v));
    }
    if let Ok(s) = item.cast::<PyString>() {
        let s = s.to_cow()?;
        return s
            .parse::<Felt>()
            .map_err(|e| PyValueError::new_err(format!("{}: {s:?} is not a felt ({e})", what())));
    }
    if let Ok(b) = item.cast::<PyBytes>() {
        let b = b.as_bytes();
        if b.len() > 32 {
            return Err(PyValueError::new_err(format!(
                "{}: {} bytes, at most 32",
                what(),
                b.len()
            )));
        }
        let mut be = [0u8; 32];
        be[32 - b.len()..].copy_from_slice(b);
        return Felt::from_bytes_be(&be)
            .map_err(|_| PyValueError::new_err(format!("{}: not below p", what())));
    }
    felt(item, what)
}

/// A column of felts (ints, `0x` hex or decimal strings, big-endian `bytes`, in any iterable:
/// a list, a pandas Series, a NumPy object array) as an `(n, 4)` `uint64` array of
/// little-endian limbs, the form every batch function takes without conversion. Raises
/// `ValueError` naming the index of an item that is not a felt below p.
#[pyfunction]
fn felt_limbs<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let mut flat: Vec<u64> = Vec::with_capacity(4 * values.len().unwrap_or(0));
    for (i, item) in values.try_iter()?.enumerate() {
        let f = felt_item(&item?, &|| format!("values[{i}]"))?;
        flat.extend(f.to_raw_limbs());
    }
    let n = flat.len() / 4;
    numpy::PyArray1::from_vec(py, flat).reshape([n, 4])
}

fn pairs(xs: &Bound<'_, PyAny>, ys: &Bound<'_, PyAny>) -> PyResult<(Vec<[Felt; 2]>, Form)> {
    let ((a, form), (b, _)) = (felt_input(xs, "xs")?, felt_input(ys, "ys")?);
    if a.len() != b.len() {
        return Err(PyValueError::new_err(format!(
            "xs and ys differ in length: {} and {}",
            a.len(),
            b.len()
        )));
    }
    Ok((a.into_iter().zip(b).map(|(a, b)| [a, b]).collect(), form))
}

/// `[poseidon_hash(x, y) for x, y in zip(xs, ys)]`, side by side in SIMD lanes and across
/// threads, without the GIL. `xs` and `ys`: sequences of ints, `bytes` or NumPy arrays
/// (`(n, 32)` `uint8` big-endian or `(n, 4)` `uint64` limbs); the result has `xs`' form.
#[pyfunction]
fn poseidon_hash_batch(
    py: Python<'_>,
    xs: &Bound<'_, PyAny>,
    ys: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let (p, form) = pairs(xs, ys)?;
    let mut out = vec![Felt::ZERO; p.len()];
    py.detach(|| Backend::current().poseidon_hash_batch_par(&p, &mut out));
    felt_output(py, &out, form)
}

/// `[pedersen_hash(x, y) for x, y in zip(xs, ys)]`, batched, without the GIL; the forms of
/// [`poseidon_hash_batch`].
#[pyfunction]
fn pedersen_hash_batch(
    py: Python<'_>,
    xs: &Bound<'_, PyAny>,
    ys: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let (p, form) = pairs(xs, ys)?;
    let mut out = vec![Felt::ZERO; p.len()];
    py.detach(|| starkbatch::pedersen_hash_batch_par(&p, &mut out));
    felt_output(py, &out, form)
}

/// Every message through a `_many` hash, batched: `messages` is a sequence of sequences of
/// ints, or, with `offsets` (n + 1 increasing ints, the first 0 and the last the number of
/// values), the flat values of every message in any batch form.
fn many_batch(
    py: Python<'_>,
    messages: &Bound<'_, PyAny>,
    offsets: Option<Vec<usize>>,
    hash: fn(&[&[Felt]], &mut [Felt]),
) -> PyResult<Py<PyAny>> {
    let (values, bounds, form) = match offsets {
        Some(offsets) => {
            let (values, form) = felt_input(messages, "messages")?;
            let ok = offsets.first() == Some(&0)
                && offsets.last() == Some(&values.len())
                && offsets.windows(2).all(|w| w[0] <= w[1]);
            if !ok {
                return Err(PyValueError::new_err(format!(
                    "offsets: expected n + 1 increasing offsets from 0 to {}",
                    values.len()
                )));
            }
            (values, offsets, form)
        }
        None => {
            let mut values = Vec::new();
            let mut bounds = vec![0];
            for (i, m) in messages.try_iter()?.enumerate() {
                let m = m?;
                for (j, x) in m.try_iter()?.enumerate() {
                    values.push(felt(&x?, &|| format!("messages[{i}][{j}]"))?);
                }
                bounds.push(values.len());
            }
            (values, bounds, Form::Ints)
        }
    };
    let refs: Vec<&[Felt]> = bounds.windows(2).map(|w| &values[w[0]..w[1]]).collect();
    let mut out = vec![Felt::ZERO; refs.len()];
    py.detach(|| hash(&refs, &mut out));
    felt_output(py, &out, form)
}

/// `[poseidon_hash_many(m) for m in messages]`, ragged messages side by side in lanes.
#[pyfunction]
#[pyo3(signature = (messages, offsets=None))]
fn poseidon_hash_many_batch(
    py: Python<'_>,
    messages: &Bound<'_, PyAny>,
    offsets: Option<Vec<usize>>,
) -> PyResult<Py<PyAny>> {
    many_batch(py, messages, offsets, |m, o| {
        Backend::current().poseidon_hash_many_batch_par(m, o)
    })
}

/// `[blake2s_hash_many(m) for m in messages]`, ragged messages side by side in lanes.
#[pyfunction]
#[pyo3(signature = (messages, offsets=None))]
fn blake2s_hash_many_batch(
    py: Python<'_>,
    messages: &Bound<'_, PyAny>,
    offsets: Option<Vec<usize>>,
) -> PyResult<Py<PyAny>> {
    many_batch(
        py,
        messages,
        offsets,
        starkbatch::blake2s_hash_many_batch_par,
    )
}

/// `[compute_hash_on_elements(m) for m in messages]`, batched.
#[pyfunction]
#[pyo3(signature = (messages, offsets=None))]
fn compute_hash_on_elements_batch(
    py: Python<'_>,
    messages: &Bound<'_, PyAny>,
    offsets: Option<Vec<usize>>,
) -> PyResult<Py<PyAny>> {
    many_batch(
        py,
        messages,
        offsets,
        starkbatch::pedersen_hash_array_batch_par,
    )
}

// ---- Tries and the state root ----------------------------------------------------------------

use starkbatch::state::{self, StateRootRule, TrieTop};
use starkbatch::{Pedersen, Poseidon};

fn trie_err(e: state::TrieError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Whether `hash` names Poseidon (`"poseidon"`) or Pedersen (`"pedersen"`).
fn is_poseidon(hash: &str) -> PyResult<bool> {
    match hash {
        "pedersen" => Ok(false),
        "poseidon" => Ok(true),
        h => Err(PyValueError::new_err(format!(
            "hash: expected \"pedersen\" or \"poseidon\", got {h:?}"
        ))),
    }
}

fn rule_of(rule: &str) -> PyResult<StateRootRule> {
    match rule {
        "from-0.14" => Ok(StateRootRule::From0_14_0),
        "before-0.14" => Ok(StateRootRule::Before0_14_0),
        r => Err(PyValueError::new_err(format!(
            "rule: expected \"from-0.14\" or \"before-0.14\", got {r:?}"
        ))),
    }
}

fn entries(keys: &Bound<'_, PyAny>, values: &Bound<'_, PyAny>) -> PyResult<Vec<(Felt, Felt)>> {
    let (k, _) = felt_input(keys, "keys")?;
    let (v, _) = felt_input(values, "values")?;
    if k.len() != v.len() {
        return Err(PyValueError::new_err(format!(
            "keys and values differ in length: {} and {}",
            k.len(),
            v.len()
        )));
    }
    Ok(k.into_iter().zip(v).collect())
}

type PyTop = (BigUint, BigUint, u32);
/// A top as Python passes it back: `(node, path, length)`.
type PyTopArg<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>, u32);

fn py_top(t: TrieTop) -> PyTop {
    (int(&t.node), int(&t.path), t.length)
}

/// The root of the Patricia-Merkle trie of `height` holding `values[i]` at `keys[i]` (the last
/// write to a key wins, 0 deletes), hashed with Pedersen (storage and contract tries) or
/// Poseidon (the class trie); keys and values in any batch form.
#[pyfunction]
#[pyo3(signature = (keys, values, height=251, hash="pedersen"))]
fn trie_root(
    py: Python<'_>,
    keys: &Bound<'_, PyAny>,
    values: &Bound<'_, PyAny>,
    height: u32,
    hash: &str,
) -> PyResult<BigUint> {
    let e = entries(keys, values)?;
    let poseidon = is_poseidon(hash)?;
    let r = py.detach(|| {
        if poseidon {
            state::trie_root::<Poseidon>(&e, height)
        } else {
            state::trie_root::<Pedersen>(&e, height)
        }
    });
    Ok(int(&r.map_err(trie_err)?))
}

/// The top of that trie with its root edge left open: `None` when empty, else `(node, path,
/// length)`; the pieces [`compose_tops`] joins (docs/scaling.md).
#[pyfunction]
#[pyo3(signature = (keys, values, height=251, hash="pedersen"))]
fn trie_top(
    py: Python<'_>,
    keys: &Bound<'_, PyAny>,
    values: &Bound<'_, PyAny>,
    height: u32,
    hash: &str,
) -> PyResult<Option<PyTop>> {
    let e = entries(keys, values)?;
    let poseidon = is_poseidon(hash)?;
    let r = py.detach(|| {
        if poseidon {
            state::trie_top::<Poseidon>(&e, height)
        } else {
            state::trie_top::<Pedersen>(&e, height)
        }
    });
    Ok(r.map_err(trie_err)?.map(py_top))
}

/// The root of a trie of height `split_bits + sub_height` from the `2^split_bits` tops of its
/// subtries (`tops[i]`: [`trie_top`] of the keys whose top `split_bits` bits are `i`, reduced
/// to their low `sub_height` bits; `None` for an empty range).
#[pyfunction]
#[pyo3(signature = (tops, split_bits, sub_height, hash="pedersen"))]
fn compose_tops(
    tops: Vec<Option<PyTopArg<'_>>>,
    split_bits: u32,
    sub_height: u32,
    hash: &str,
) -> PyResult<BigUint> {
    let mut t = Vec::with_capacity(tops.len());
    for (i, top) in tops.iter().enumerate() {
        t.push(match top {
            None => None,
            Some((node, path, length)) => Some(TrieTop {
                node: felt(node, &|| format!("tops[{i}].node"))?,
                path: felt(path, &|| format!("tops[{i}].path"))?,
                length: *length,
            }),
        });
    }
    let r = if is_poseidon(hash)? {
        state::compose_tops::<Poseidon>(&t, split_bits, sub_height)
    } else {
        state::compose_tops::<Pedersen>(&t, split_bits, sub_height)
    };
    Ok(int(&r.map_err(trie_err)?))
}

/// A contract's leaf in the contract trie: `H(H(H(class_hash, storage_root), nonce), 0)`.
#[pyfunction]
fn contract_state_hash(
    class_hash: &Bound<'_, PyAny>,
    storage_root: &Bound<'_, PyAny>,
    nonce: &Bound<'_, PyAny>,
) -> PyResult<BigUint> {
    Ok(int(&state::contract_state_hash(
        &felt(class_hash, &arg("class_hash"))?,
        &felt(storage_root, &arg("storage_root"))?,
        &felt(nonce, &arg("nonce"))?,
    )))
}

/// The state root from the contract and class roots under `rule` (`"from-0.14"`, the default,
/// or `"before-0.14"`).
#[pyfunction]
#[pyo3(signature = (contract_root, class_root, rule="from-0.14"))]
fn global_state_root(
    contract_root: &Bound<'_, PyAny>,
    class_root: &Bound<'_, PyAny>,
    rule: &str,
) -> PyResult<BigUint> {
    Ok(int(&state::global_state_root(
        &felt(contract_root, &arg("contract_root"))?,
        &felt(class_root, &arg("class_root"))?,
        rule_of(rule)?,
    )))
}

/// One contract of a state: `{"address", "class_hash", "nonce", "storage"}`, `storage` a dict
/// key → value (or a sequence of pairs); missing fields are 0 / empty.
fn contract_of(c: &Bound<'_, PyAny>, i: usize) -> PyResult<state::ContractState> {
    let get = |name: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        match c.get_item(name) {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyError>(c.py()) => Ok(None),
            Err(e) => Err(e),
        }
    };
    let field = |name: &'static str| -> PyResult<Felt> {
        match get(name)? {
            Some(v) => felt(&v, &|| format!("contracts[{i}].{name}")),
            None => Ok(Felt::ZERO),
        }
    };
    let address = get("address")?
        .ok_or_else(|| PyValueError::new_err(format!("contracts[{i}]: no address")))?;
    let address = felt(&address, &|| format!("contracts[{i}].address"))?;
    let mut storage = Vec::new();
    if let Some(st) = get("storage")? {
        let items = match st.cast::<pyo3::types::PyDict>() {
            Ok(d) => d.items().into_any(),
            Err(_) => st,
        };
        for (j, kv) in items.try_iter()?.enumerate() {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = kv?.extract()?;
            storage.push((
                felt(&k, &|| format!("contracts[{i}].storage[{j}].key"))?,
                felt(&v, &|| format!("contracts[{i}].storage[{j}].value"))?,
            ));
        }
    }
    Ok(state::ContractState {
        address,
        class_hash: field("class_hash")?,
        nonce: field("nonce")?,
        storage,
    })
}

/// The state commitment of a whole state: `contracts` a sequence of dicts (`address`,
/// `class_hash`, `nonce`, `storage`), `classes` a dict class hash → compiled class hash.
/// Returns `{"state_root", "contract_root", "class_root"}`.
#[pyfunction]
#[pyo3(signature = (contracts, classes=None, rule="from-0.14"))]
fn state_commitment<'py>(
    py: Python<'py>,
    contracts: &Bound<'py, PyAny>,
    classes: Option<&Bound<'py, pyo3::types::PyDict>>,
    rule: &str,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let rule = rule_of(rule)?;
    let mut cs = Vec::new();
    for (i, c) in contracts.try_iter()?.enumerate() {
        cs.push(contract_of(&c?, i)?);
    }
    let mut cl = Vec::new();
    if let Some(d) = classes {
        for (j, (k, v)) in d.iter().enumerate() {
            cl.push(state::DeclaredClass {
                class_hash: felt(&k, &|| format!("classes[{j}] class hash"))?,
                compiled_class_hash: felt(&v, &|| format!("classes[{j}] compiled class hash"))?,
            });
        }
    }
    let r = py
        .detach(|| state::state_commitment(&cs, &cl, rule))
        .map_err(trie_err)?;
    let out = pyo3::types::PyDict::new(py);
    out.set_item("state_root", int(&r.state_root))?;
    out.set_item("contract_root", int(&r.contract_root))?;
    out.set_item("class_root", int(&r.class_root))?;
    Ok(out)
}

/// The tops of the address ranges of the contract trie present in the rows given, for
/// sharding a state root (`starkbatch.dask`, docs/scaling.md). Every contract (contract rows
/// `addresses`, `class_hashes`, `nonces`, and storage rows `storage_contracts`, `storage_keys`,
/// `storage_values`; a contract with storage but no contract row has class hash and nonce 0)
/// gets its storage root and leaf; the contracts are cut by the top `split_bits` bits of their
/// address into ranges, and each range's leaves make a trie over the addresses' low
/// `251 - split_bits` bits. All storage tries are built together, then all range tops (one
/// batch per trie level for the whole call). Returns `[(range, (node, path, length)), ...]`
/// for the non-empty ranges in ascending order, each top as [`compose_tops`] takes it.
/// `threads`: the native threads to use (`None`: all cores; a Dask task passes 1, its worker
/// being the unit of parallelism).
#[pyfunction]
#[pyo3(signature = (storage_contracts, storage_keys, storage_values, addresses, class_hashes, nonces, split_bits, threads=None))]
#[allow(clippy::too_many_arguments)]
fn contracts_tops(
    py: Python<'_>,
    storage_contracts: &Bound<'_, PyAny>,
    storage_keys: &Bound<'_, PyAny>,
    storage_values: &Bound<'_, PyAny>,
    addresses: &Bound<'_, PyAny>,
    class_hashes: &Bound<'_, PyAny>,
    nonces: &Bound<'_, PyAny>,
    split_bits: u32,
    threads: Option<usize>,
) -> PyResult<Vec<(u64, PyTop)>> {
    let (sc, _) = felt_input(storage_contracts, "storage_contracts")?;
    let (sk, _) = felt_input(storage_keys, "storage_keys")?;
    let (sv, _) = felt_input(storage_values, "storage_values")?;
    let (ad, _) = felt_input(addresses, "addresses")?;
    let (ch, _) = felt_input(class_hashes, "class_hashes")?;
    let (no, _) = felt_input(nonces, "nonces")?;
    if sc.len() != sk.len() || sc.len() != sv.len() || ad.len() != ch.len() || ad.len() != no.len()
    {
        return Err(PyValueError::new_err(
            "storage columns and contract columns must each have equal lengths",
        ));
    }
    if split_bits > 32 {
        return Err(PyValueError::new_err("split_bits: at most 32"));
    }
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads: at least 1"));
    }
    let sub = 251 - split_bits;
    let build = || -> Result<Vec<(u64, TrieTop)>, String> {
        let mut index: std::collections::HashMap<[u64; 4], usize> = Default::default();
        let mut contracts: Vec<state::ContractState> = Vec::new();
        let mut slot = |a: Felt, contracts: &mut Vec<state::ContractState>| -> usize {
            *index.entry(a.to_raw_limbs()).or_insert_with(|| {
                contracts.push(state::ContractState {
                    address: a,
                    ..Default::default()
                });
                contracts.len() - 1
            })
        };
        for ((a, c), n) in ad.iter().zip(&ch).zip(&no) {
            let i = slot(*a, &mut contracts);
            contracts[i].class_hash = *c;
            contracts[i].nonce = *n;
        }
        for ((a, k), v) in sc.iter().zip(&sk).zip(&sv) {
            let i = slot(*a, &mut contracts);
            contracts[i].storage.push((*k, *v));
        }
        let tries: Vec<&[(Felt, Felt)]> = contracts.iter().map(|c| c.storage.as_slice()).collect();
        let roots = state::trie_roots::<Pedersen>(&tries, 251).map_err(|e| e.to_string())?;
        let cls: Vec<Felt> = contracts.iter().map(|c| c.class_hash).collect();
        let nos: Vec<Felt> = contracts.iter().map(|c| c.nonce).collect();
        let mut leaves = vec![Felt::ZERO; contracts.len()];
        state::contract_state_hashes(&cls, &roots, &nos, &mut leaves);
        // Each address split into its range (the top `split_bits` bits, all in limbs 2 and 3
        // as sub >= 219) and its low `sub` bits, the key in the range's trie.
        let mut keyed: Vec<(u64, (Felt, Felt))> = contracts
            .iter()
            .zip(leaves)
            .map(|(c, leaf)| {
                let mut a = c.address.to_raw_limbs();
                let range = (((a[3] as u128) << 64 | a[2] as u128) >> (sub - 128)) as u64;
                for (i, w) in a.iter_mut().enumerate() {
                    let lo = 64 * i as u32;
                    if sub <= lo {
                        *w = 0;
                    } else if sub < lo + 64 {
                        *w &= (1u64 << (sub - lo)) - 1;
                    }
                }
                (range, (Felt::from_raw_limbs(a).unwrap_or(Felt::ZERO), leaf))
            })
            .collect();
        keyed.sort_unstable_by_key(|(r, _)| *r);
        let entries: Vec<(Felt, Felt)> = keyed.iter().map(|(_, e)| *e).collect();
        let mut ranges: Vec<u64> = Vec::new();
        let mut parts: Vec<&[(Felt, Felt)]> = Vec::new();
        let mut start = 0;
        for i in 1..=keyed.len() {
            if i == keyed.len() || keyed[i].0 != keyed[start].0 {
                ranges.push(keyed[start].0);
                parts.push(&entries[start..i]);
                start = i;
            }
        }
        let tops = state::trie_tops::<Pedersen>(&parts, sub).map_err(|e| e.to_string())?;
        Ok(ranges
            .into_iter()
            .zip(tops)
            .filter_map(|(r, t)| t.map(|t| (r, t)))
            .collect())
    };
    let r = py.detach(|| match threads {
        None => build(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| e.to_string())
            .and_then(|pool| pool.install(build)),
    });
    Ok(r.map_err(PyValueError::new_err)?
        .into_iter()
        .map(|(r, t)| (r, py_top(t)))
        .collect())
}

/// The SIMD backend the engine runs on (`avx512ifma`, `avx2`, `neon` or `portable`).
#[pyfunction]
fn backend() -> String {
    Backend::current().name().to_string()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("P", int(&Felt::MAX) + 1u32)?;
    m.add_function(wrap_pyfunction!(poseidon_hash, m)?)?;
    m.add_function(wrap_pyfunction!(poseidon_hash_single, m)?)?;
    m.add_function(wrap_pyfunction!(poseidon_hash_many, m)?)?;
    m.add_function(wrap_pyfunction!(hades_permutation, m)?)?;
    m.add_function(wrap_pyfunction!(poseidon_perm, m)?)?;
    m.add_function(wrap_pyfunction!(pedersen_hash, m)?)?;
    m.add_function(wrap_pyfunction!(cpp_hash, m)?)?;
    m.add_function(wrap_pyfunction!(compute_hash_on_elements, m)?)?;
    m.add_function(wrap_pyfunction!(get_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(cpp_get_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(cpp_generate_k_rfc6979, m)?)?;
    m.add_function(wrap_pyfunction!(sign, m)?)?;
    m.add_function(wrap_pyfunction!(cpp_sign, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(cpp_verify, m)?)?;
    m.add_function(wrap_pyfunction!(blake2s_hash_many, m)?)?;
    m.add_function(wrap_pyfunction!(class_hash, m)?)?;
    m.add_function(wrap_pyfunction!(compiled_class_hash, m)?)?;
    m.add_function(wrap_pyfunction!(poseidon_hash_batch, m)?)?;
    m.add_function(wrap_pyfunction!(pedersen_hash_batch, m)?)?;
    m.add_function(wrap_pyfunction!(poseidon_hash_many_batch, m)?)?;
    m.add_function(wrap_pyfunction!(blake2s_hash_many_batch, m)?)?;
    m.add_function(wrap_pyfunction!(compute_hash_on_elements_batch, m)?)?;
    m.add_function(wrap_pyfunction!(backend, m)?)?;
    m.add_function(wrap_pyfunction!(trie_root, m)?)?;
    m.add_function(wrap_pyfunction!(trie_top, m)?)?;
    m.add_function(wrap_pyfunction!(compose_tops, m)?)?;
    m.add_function(wrap_pyfunction!(contract_state_hash, m)?)?;
    m.add_function(wrap_pyfunction!(global_state_root, m)?)?;
    m.add_function(wrap_pyfunction!(state_commitment, m)?)?;
    m.add_function(wrap_pyfunction!(contracts_tops, m)?)?;
    m.add_function(wrap_pyfunction!(felt_limbs, m)?)?;
    Ok(())
}
