"""What the bot says and in which language: the gettext catalogues of `locale/` (`i18n`)
and names shown as they were typed in Discord's markdown (`markdown`)."""
