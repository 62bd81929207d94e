import pytest, time
from games import verify
from tests.audit.driver import new_game, play_out, full_export

@pytest.mark.django_db
def test_x():
    t=time.time()
    g = play_out(new_game("rising-sun", 4))
    print("play", time.time()-t, g.version, g.status)
    rows = full_export(g)
    t=time.time()
    r = verify.verify(rows)
    print("verify", time.time()-t)
    print(verify.format_report(r))
    assert r.ok
