//! The real bot in a task against the fake Discord, for test files that include
//! `support/fake_discord/mod.rs` as `fake_discord`: started once its commands are registered,
//! stopped with every interaction answered and no violation.
#![allow(dead_code)]

use croupier::bot::{run_with_service, BotConfig};
use croupier::config::Token;
use croupier::service::Service;

use crate::fake_discord::{FakeDiscord, GUILD_ID};

/// The bot's configuration for the fake at `api_base`.
pub fn config(token: Token, api_base: String, tick: Option<std::time::Duration>) -> BotConfig {
    BotConfig {
        token,
        database_url: String::new(),
        dev_guild: Some(GUILD_ID),
        api_base: Some(api_base),
        shards: None,
        tick,
    }
}

pub struct RunningBot {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl RunningBot {
    pub async fn start(fake: &FakeDiscord, service: Service, config: BotConfig) -> RunningBot {
        let (stop, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(run_with_service(config, service, async {
            rx.await.ok();
        }));
        fake.wait_until("the bot's commands", |st| {
            st.commands
                .iter()
                .any(|c| c.guild_id == Some(GUILD_ID))
                .then_some(())
        })
        .await;
        RunningBot { stop, task }
    }

    /// Stops the bot (it must end cleanly), then checks every interaction was answered and the
    /// fake saw no violation.
    pub async fn stop(self, fake: &FakeDiscord) {
        let _ = self.stop.send(());
        self.task
            .await
            .expect("bot task")
            .expect("bot ended cleanly");
        fake.wait_until("every interaction answered", |st| {
            st.interactions
                .values()
                .all(|i| i.callback.is_some())
                .then_some(())
        })
        .await;
        fake.assert_clean();
    }
}
