"""The database cache table behind the `throttle` cache (config/settings.py):
rate-limit counters every web process shares and that survive restarts on the
embedded default (no Redis). `migrate` creates it, so every install path that
migrates (make run, the compose `migrate` service, the test runner) has it."""

from django.core.management import call_command
from django.db import migrations

TABLE = "sengoku_cache"


def create(apps, schema_editor):
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def drop(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]
