from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies: list = []

    operations = [
        migrations.CreateModel(
            name="Heartbeat",
            fields=[
                ("node", models.CharField(max_length=200, primary_key=True, serialize=False)),
                ("role", models.CharField(choices=[("worker", "Worker"), ("scheduler", "Scheduler")],
                                          max_length=10)),
                ("pid", models.PositiveIntegerField(default=0)),
                ("started_at", models.DateTimeField()),
                ("beat_at", models.DateTimeField(db_index=True)),
            ],
        ),
    ]
