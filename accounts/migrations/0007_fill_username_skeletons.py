"""Skeletons for the accounts that existed before accounts/usernames.py: the
oldest account keeps a look; a younger one that looks the same stores None
(it keeps its name, and the older account's skeleton still guards it)."""

from django.db import migrations


def fill(apps, schema_editor):
    from accounts.usernames import skeletons

    User = apps.get_model("auth", "User")
    UsernameSkeleton = apps.get_model("accounts", "UsernameSkeleton")
    have = set(UsernameSkeleton.objects.values_list("user_id", flat=True))
    folded_seen = set(UsernameSkeleton.objects.exclude(folded=None).values_list("folded", flat=True))
    shaped_seen = set(UsernameSkeleton.objects.exclude(shaped=None).values_list("shaped", flat=True))
    rows = []
    for user_id, username in User.objects.order_by("id").values_list("id", "username").iterator():
        if user_id in have:
            continue
        folded, shaped = skeletons(username)
        rows.append(
            UsernameSkeleton(
                user_id=user_id,
                folded=None if folded in folded_seen else folded,
                shaped=None if shaped in shaped_seen else shaped,
            )
        )
        folded_seen.add(folded)
        shaped_seen.add(shaped)
        if len(rows) >= 1000:
            UsernameSkeleton.objects.bulk_create(rows)
            rows = []
    UsernameSkeleton.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_account_doors")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
