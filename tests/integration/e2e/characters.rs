//! Character sheets through Discord: export attaches a file, import downloads one.

use super::Session;

#[test]
fn an_exported_sheet_imports_into_another_server_through_an_attachment() {
    let s = Session::start();
    let owner = s.player(10);
    s.run(&owner, "/character create name:Gala system:thiz");
    s.run(&owner, "/character skill name:Gala skill:Swimming rating:4");
    let export = s.run(&owner, "/character export name:Gala");
    assert_eq!(export.kind(), 4, "{}", export.callback_body());
    let files = &export.callback.files;
    assert_eq!(files.len(), 1, "the export attaches one file");
    let file = &files[0];
    let name = file
        .filename
        .clone()
        .expect("the attachment has a file name");
    let sheet = String::from_utf8(file.bytes.clone()).expect("a text sheet");
    assert!(
        sheet.contains("Gala") && sheet.contains("Swimming"),
        "{sheet}"
    );

    // A fresh bot and database: the sheet comes back only through the attachment's URL.
    let other = Session::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(&name);
    std::fs::write(&path, &file.bytes).expect("write the exported sheet");
    let import = other.run(
        &other.player(20),
        &format!("/character import file:\"{}\"", path.display()),
    );
    assert!(import.text().contains("Gala"), "{}", import.text());
    let check = other.run(&other.player(20), "/check skill:Swimming character:Gala");
    assert!(
        check.text().contains("Gala: Swimming check"),
        "the imported sheet has its skill: {}",
        check.text()
    );
}
