//! CTranslate2's `model.bin`, little-endian throughout: the format version,
//! the spec name (`WhisperSpec`) and its revision, then each variable (name,
//! rank, dimensions, element type, byte count, raw bytes), then aliases (a
//! second name for a variable, such as the output projection that shares the
//! token embedding). Strings are a u16 length that counts a closing NUL.

use std::collections::HashMap;
use std::ops::RangeInclusive;

/// Versions 4 to 6 lay variables out the same way; 5 only changed how int8
/// weights are rounded and 6 moved settings to `config.json`.
const VERSIONS: RangeInclusive<u32> = 4..=6;
/// No real variable has more dimensions; more means the bytes are not a model.
const MAX_RANK: u8 = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    F32,
    I8,
    I16,
    I32,
    F16,
    BF16,
}

impl Element {
    fn from_id(id: u8) -> Option<Self> {
        Some(match id {
            0 => Self::F32,
            1 => Self::I8,
            2 => Self::I16,
            3 => Self::I32,
            4 => Self::F16,
            5 => Self::BF16,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Self::I8 => 1,
            Self::I16 | Self::F16 | Self::BF16 => 2,
            Self::F32 | Self::I32 => 4,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Variable<'a> {
    pub shape: Vec<usize>,
    pub element: Element,
    pub bytes: &'a [u8],
}

impl Variable<'_> {
    /// A scalar setting such as `encoder/num_heads`.
    pub fn integer(&self) -> Option<i64> {
        if !self.shape.is_empty() {
            return None;
        }
        let b = self.bytes;
        match self.element {
            Element::I8 => Some(i8::from_le_bytes([b[0]]) as i64),
            Element::I16 => Some(i16::from_le_bytes([b[0], b[1]]) as i64),
            Element::I32 => Some(i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64),
            _ => None,
        }
    }
}

#[derive(Debug)]
pub struct ModelBin<'a> {
    pub spec: String,
    variables: HashMap<String, Variable<'a>>,
}

impl<'a> ModelBin<'a> {
    /// Reads every variable, checking each length against the data, so a
    /// truncated or foreign file fails here with the place it broke.
    pub fn parse(data: &'a [u8]) -> Result<Self, String> {
        let mut r = Reader { data, pos: 0 };
        let spec = header(&mut r)?;
        let _revision = r.u32("the spec revision")?;
        let count = r.u32("the variable count")?;
        let mut variables = HashMap::new();
        for index in 0..count {
            let name = r.string(&format!("the name of variable {index}"))?;
            let variable = variable(&mut r, &name)?;
            variables.insert(name, variable);
        }
        let aliases = r.u32("the alias count")?;
        for _ in 0..aliases {
            let alias = r.string("an alias")?;
            let target = r.string(&format!("the target of alias {alias}"))?;
            let variable = variables
                .get(&target)
                .cloned()
                .ok_or_else(|| format!("alias {alias} names {target}, which the file does not hold"))?;
            variables.insert(alias, variable);
        }
        Ok(Self { spec, variables })
    }

    pub fn get(&self, name: &str) -> Option<&Variable<'a>> {
        self.variables.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.variables.keys().map(String::as_str)
    }
}

fn header(r: &mut Reader<'_>) -> Result<String, String> {
    let version = r.u32("the format version")?;
    if !VERSIONS.contains(&version) {
        return Err(format!(
            "format version {version} is not one this reader knows ({}–{}): not a CTranslate2 model of a supported version",
            VERSIONS.start(),
            VERSIONS.end()
        ));
    }
    r.string("the spec name")
}

fn variable<'a>(r: &mut Reader<'a>, name: &str) -> Result<Variable<'a>, String> {
    let rank = r.u8(name)?;
    if rank > MAX_RANK {
        return Err(format!("variable {name} claims {rank} dimensions"));
    }
    let shape = (0..rank).map(|_| r.u32(name).map(|d| d as usize)).collect::<Result<Vec<_>, _>>()?;
    let id = r.u8(name)?;
    let element = Element::from_id(id).ok_or_else(|| format!("variable {name} has an unknown element type {id}"))?;
    let len = r.u32(name)? as usize;
    let expected = shape
        .iter()
        .try_fold(element.size(), |n, &d| n.checked_mul(d))
        .ok_or_else(|| format!("variable {name} has an impossible shape {shape:?}"))?;
    if len != expected {
        return Err(format!("variable {name} holds {len} bytes but its shape {shape:?} needs {expected}"));
    }
    let bytes = r.take(len, name)?;
    Ok(Variable { shape, element, bytes })
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.pos.checked_add(n).filter(|&end| end <= self.data.len()).ok_or_else(|| {
            format!("the file is truncated: it ends at byte {} while reading {what}", self.data.len())
        })?;
        let bytes = &self.data[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn string(&mut self, what: &str) -> Result<String, String> {
        let b = self.take(2, what)?;
        let len = u16::from_le_bytes([b[0], b[1]]) as usize;
        let bytes = self.take(len, what)?;
        let text = bytes.strip_suffix(&[0]).ok_or_else(|| format!("{what} is not a NUL-terminated string"))?;
        String::from_utf8(text.to_vec()).map_err(|_| format!("{what} is not UTF-8"))
    }
}
