"""On PostgreSQL, the database itself refuses UPDATE and DELETE on events, whatever
code runs. SQLite relies on the model's refusal. TRUNCATE stays possible for
the test runner's flush (it is a DBA's operation, not an application's)."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION sengoku_events_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only: % refused on %', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events_storedevent
  FOR EACH ROW EXECUTE FUNCTION sengoku_events_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS events_no_update_delete ON events_storedevent;
DROP FUNCTION IF EXISTS sengoku_events_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("events", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
