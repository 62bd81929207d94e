"""The browser client's pages. Games change only through the services the API
uses (lobby forms here) or through the public API itself (the game page's script)."""

from django.urls import path

from .language import ScriptCatalogue
from .views import accounts, game, lobby

app_name = "web"

urlpatterns = [
    path("", lobby.index, name="lobby"),
    # The scripts' words in the page's language (locale/*/LC_MESSAGES/djangojs.po): a file,
    # not an inline script, so the Content-Security-Policy stays strict; one URL per
    # language (?lang=, base.html), always revalidated (web/language.py).
    path("jsi18n/", ScriptCatalogue.as_view(packages=["web"]), name="jsi18n"),
    path("games/new", lobby.create, name="create"),
    path("games/<str:game_id>", game.game_page, name="game"),
    path("games/<str:game_id>/join", lobby.join_game, name="join"),
    path("games/<str:game_id>/replay", game.replay_page, name="replay"),
    path("games/<str:game_id>/replay/<int:version>.json", game.replay_json, name="replay-json"),
    path("games/<str:game_id>/board/<int:version>.svg", game.board_svg, name="board"),
    path("games/<str:game_id>/audit", game.audit_page, name="audit"),
    path("games/<str:game_id>/export.jsonl", game.export, name="export"),
    path("accounts/signup", accounts.signup, name="signup"),
    path("accounts/signin", accounts.SignIn.as_view(), name="signin"),
    path("accounts/signout", accounts.SignOut.as_view(), name="signout"),
    path("accounts/settings", accounts.settings_page, name="settings"),
]
