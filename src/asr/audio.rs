//! Reading a recording into 16 kHz mono samples.
