//! Proves the fake Discord with serenity's own client: no bot code involved.

#[path = "support/fake_discord/mod.rs"]
mod fake_discord;

use fake_discord::*;

#[tokio::test]
async fn smoke() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let me = http.get_current_user().await.unwrap();
    assert_eq!(me.id.get(), BOT_USER_ID);
    fake.assert_clean();
}
