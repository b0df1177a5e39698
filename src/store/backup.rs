//! A consistent copy of a live SQLite database (`croupier backup FILE`, issue 26).
//!
//! SQLite's `VACUUM INTO` reads the whole database in one read transaction and writes a
//! compacted copy: moves committed while it runs are either wholly in the copy or not at all,
//! which a raw copy of a busy file (or of its `-wal` beside it) cannot promise. Under WAL the
//! bot keeps writing meanwhile. PostgreSQL has its own tools (`pg_dump`, README).

use std::path::Path;

use super::{Backend, Store, StoreError};

impl Store {
    /// Writes a consistent copy of this SQLite database to `path`, a file that must not exist
    /// yet (nothing is overwritten). Refused on PostgreSQL, with the command to use instead.
    pub async fn backup_to(&self, path: &Path) -> Result<(), StoreError> {
        if self.backend() != Backend::Sqlite {
            return Err(StoreError::Invalid(
                "backups of PostgreSQL are taken with pg_dump (see README, \"Backups\")".into(),
            ));
        }
        let target = path.to_str().ok_or_else(|| {
            StoreError::Invalid(format!("{} is not a UTF-8 path", path.display()))
        })?;
        // The copy holds every member's games and settings: readable by its owner only. The
        // file is made empty with that mode first (VACUUM INTO fills an empty file), so it
        // is never readable by others, not even for a moment; `create_new` overwrites nothing.
        let mut file = std::fs::OpenOptions::new();
        file.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut file, 0o600);
        match file.open(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(StoreError::Invalid(format!(
                    "{} already exists: choose a new file name",
                    path.display()
                )));
            }
            Err(e) => {
                return Err(StoreError::Invalid(format!(
                    "{} cannot be written: {e}",
                    path.display()
                )));
            }
        }
        // The file name is a bound value, not SQL text.
        let copied = sqlx::query("VACUUM INTO $1")
            .bind(target.to_owned())
            .execute(&self.pool)
            .await;
        if let Err(e) = copied {
            // No half-written or empty copy is left to be mistaken for a backup.
            let _ = std::fs::remove_file(path);
            return Err(e.into());
        }
        Ok(())
    }
}
