"""placeholder"""


def run_wizard(name, chronicle, db, json_out):
    raise NotImplementedError
