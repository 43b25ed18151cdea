//! `debrief models import` of folders, zips, wheels, GGUF files and
//! CTranslate2 Whisper models.

use std::fs;

use serde_json::json;

use super::fixtures::*;
use crate::harness::text;

#[test]
fn importing_a_vosk_model_folder_copies_it_into_place_and_keeps_the_source() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("vosk-model-test-0.1");
    write_tree(&source, &vosk_files());
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[source.to_str().unwrap()]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("imported vosk-model-test-0.1 (vosk) into"), "{}", text(&out.stdout));
    assert_vosk_model_installed(&data_dir);
    assert!(source.join("am/final.mdl").is_file(), "the source is copied, not moved");
    assert!(dot_entries(&data_dir.join("models/vosk")).is_empty(), "no staging folder is left");
}

#[test]
fn importing_zip_archives_installs_libvosk_from_a_wheel_and_names_a_whisper_model_by_its_size() {
    let temp = tempfile::tempdir().unwrap();
    let wheel_path = temp.path().join("vosk-0.3.45-py3-none-manylinux.whl");
    fs::write(&wheel_path, wheel()).unwrap();
    let config =
        json!({ "model_type": "whisper", "d_model": 384, "encoder_layers": 4, "vocab_size": 51864 }).to_string();
    let weights = noise(20_000, 6);
    let whisper_zip = temp.path().join("downloaded.zip");
    fs::write(
        &whisper_zip,
        zip(&[
            ("snapshot/config.json", config.as_bytes()),
            ("snapshot/tokenizer.json", b"{}"),
            ("snapshot/model.safetensors", &weights),
        ]),
    )
    .unwrap();
    let data_dir = temp.path().join("data");

    for archive in [&wheel_path, &whisper_zip] {
        let out = import(&data_dir, &[archive.to_str().unwrap()]);
        assert!(out.status.success(), "{}: {}", archive.display(), text(&out.stderr));
    }

    assert_eq!(fs::read(data_dir.join("models/lib/libvosk.so")).unwrap(), elf_library());
    let whisper = data_dir.join("models/whisper/tiny.en");
    assert_eq!(fs::read(whisper.join("model.safetensors")).unwrap(), weights);
    assert_eq!(fs::read_to_string(whisper.join("config.json")).unwrap(), config);
    assert!(
        dot_entries(&data_dir.join("models")).is_empty(),
        "the unpacked scratch copy is gone: {:?}",
        dot_entries(&data_dir.join("models"))
    );
}

#[test]
fn importing_a_library_built_for_another_processor_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let (other, name) = if std::env::consts::ARCH == "aarch64" { (X86_64, "x86_64") } else { (AARCH64, "aarch64") };
    let wheel_path = temp.path().join("vosk-0.3.45-py3-none-other.whl");
    fs::write(&wheel_path, wheel_with(&elf_library_for(other))).unwrap();
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[wheel_path.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&format!("built for {name}; this machine is {}", std::env::consts::ARCH)), "{stderr}");
    assert!(stderr.contains(wheel_path.to_str().unwrap()), "names the file the user gave: {stderr}");
    assert!(!data_dir.join("models/lib").exists());
}

#[test]
fn importing_a_gguf_file_installs_it_as_an_llm_with_the_tokenizer_beside_it() {
    let temp = tempfile::tempdir().unwrap();
    let gguf = temp.path().join("SmolLM2-135M-Instruct.Q8_0.gguf");
    fs::write(&gguf, noise(10_000, 7)).unwrap();
    fs::write(temp.path().join("tokenizer.json"), b"{\"model\":{}}").unwrap();
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[gguf.to_str().unwrap()]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    let llm = data_dir.join("models/llm/smollm2-135m-instruct.q8_0");
    assert_eq!(fs::read(llm.join("model.gguf")).unwrap(), fs::read(&gguf).unwrap());
    assert_eq!(fs::read(llm.join("tokenizer.json")).unwrap(), b"{\"model\":{}}");
}

#[test]
fn importing_over_an_installed_model_needs_force() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("vosk-model-test-0.1");
    write_tree(&source, &vosk_files());
    let data_dir = temp.path().join("data");
    assert!(import(&data_dir, &[source.to_str().unwrap()]).status.success());
    fs::write(source.join("README"), b"a newer model\n").unwrap();

    let refused = import(&data_dir, &[source.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("installed already; pass --force to replace it"),
        "{}",
        text(&refused.stderr)
    );
    let installed = data_dir.join("models/vosk/vosk-model-test-0.1/README");
    assert_eq!(fs::read(&installed).unwrap(), b"a test model\n");

    let forced = import(&data_dir, &[source.to_str().unwrap(), "--force"]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    assert_eq!(fs::read(&installed).unwrap(), b"a newer model\n");
    assert!(dot_entries(&data_dir.join("models/vosk")).is_empty(), "the replaced model is deleted");
}

#[test]
fn importing_something_unrecognised_fails_and_says_what_is_recognised() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("holiday-photos");
    write_tree(&source, &[("beach.jpg", noise(100, 8))]);
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[source.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("is not a model debrief recognises"), "{stderr}");
    for recognised in ["Vosk model", "libvosk.so", "model_type whisper", "model_type bert", ".gguf"] {
        assert!(stderr.contains(recognised), "{recognised}: {stderr}");
    }
    assert!(
        import(&data_dir, &[temp.path().join("missing").to_str().unwrap()]).stderr.starts_with(b"error: cannot read")
    );
}

#[test]
fn importing_a_zip_with_an_entry_outside_its_folder_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let archive = temp.path().join("evil.zip");
    fs::write(&archive, zip(&[("model/am/final.mdl", b"x".as_slice()), ("../../escaped.txt", b"x".as_slice())]))
        .unwrap();
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[archive.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("would be written outside the folder"), "{}", text(&out.stderr));
    assert!(!temp.path().join("escaped.txt").exists() && !data_dir.join("escaped.txt").exists());
    assert!(dot_entries(&data_dir.join("models")).is_empty(), "the scratch folder is gone");
}

#[test]
fn importing_a_ctranslate2_whisper_folder_converts_it_and_a_damaged_one_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("faster-whisper-tiny.en");
    let config = json!({ "alignment_heads": [[2, 2]], "suppress_ids": [] }).to_string();
    write_tree(
        &source,
        &[
            ("model.bin", noise(1_000, 10)),
            ("vocabulary.txt", b"a\nb\n".to_vec()),
            ("config.json", config.into_bytes()),
        ],
    );
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[source.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot convert"), "{}", text(&out.stderr));
    assert!(!data_dir.join("models/whisper").exists());

    let real = crate::harness::test_models().join("whisper-tiny.en-ct2");
    let out = import(&data_dir, &[real.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let installed = data_dir.join("models/whisper/tiny.en");
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        assert!(installed.join(file).is_file(), "{file} missing in {}", installed.display());
    }
    assert!(real.join("model.bin").is_file(), "the source is kept");
}
